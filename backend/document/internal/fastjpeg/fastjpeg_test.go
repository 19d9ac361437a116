package fastjpeg

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/jpeg"
	"math"
	"math/rand"
	"os"
	"path/filepath"
	"testing"
)

// planes are an image's planes and their sizes: Y (or gray), then Cb and Cr.
type plane struct {
	pix    []byte
	stride int
	w, h   int
}

func planesOf(t *testing.T, m image.Image) []plane {
	t.Helper()
	switch m := m.(type) {
	case *image.Gray:
		return []plane{{m.Pix, m.Stride, m.Rect.Dx(), m.Rect.Dy()}}
	case *image.YCbCr:
		w, h := m.Rect.Dx(), m.Rect.Dy()
		cw, ch := w, h
		switch m.SubsampleRatio {
		case image.YCbCrSubsampleRatio422:
			cw = (w + 1) / 2
		case image.YCbCrSubsampleRatio420:
			cw, ch = (w+1)/2, (h+1)/2
		case image.YCbCrSubsampleRatio440:
			ch = (h + 1) / 2
		case image.YCbCrSubsampleRatio411:
			cw = (w + 3) / 4
		case image.YCbCrSubsampleRatio410:
			cw, ch = (w+3)/4, (h+1)/2
		}
		return []plane{{m.Y, m.YStride, w, h}, {m.Cb, m.CStride, cw, ch}, {m.Cr, m.CStride, cw, ch}}
	}
	t.Fatalf("image is a %T", m)
	return nil
}

// psnr compares a plane read at 1/scale with the mean of each scale×scale
// square of the same plane read whole (image/jpeg), in the blocks that lie
// wholly inside the image (an encoder pads the others as it likes).
func psnr(full, small plane, scale int) (float64, int) {
	var se float64
	worst, n := 0, 0
	for y := 0; y < small.h && (y+1)*scale <= full.h/8*8; y++ {
		for x := 0; x < small.w && (x+1)*scale <= full.w/8*8; x++ {
			sum, cnt := 0, 0
			for yy := y * scale; yy < min(full.h, y*scale+scale); yy++ {
				for xx := x * scale; xx < min(full.w, x*scale+scale); xx++ {
					sum += int(full.pix[yy*full.stride+xx])
					cnt++
				}
			}
			d := float64(small.pix[y*small.stride+x]) - float64(sum)/float64(cnt)
			se += d * d
			n++
			worst = max(worst, int(math.Abs(d)+0.5))
		}
	}
	return 10 * math.Log10(255*255/(se/float64(n)+1e-9)), worst
}

// photo is a gradient with edges and noise, as Go's encoder writes it (4:2:0
// or gray).
func photo(w, h int, gray bool, quality int) []byte {
	r := rand.New(rand.NewSource(int64(w*h + quality)))
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			n := r.Intn(16) - 8
			c := func(v int) uint8 { return uint8(min(255, max(0, v+n))) }
			p := color.RGBA{c(x * 255 / w), c(y * 255 / h), c(128 + int(90*math.Sin(float64(x)/9))), 255}
			if (x/20+y/20)%3 == 0 {
				p.R, p.B = 255-p.R, 30
			}
			m.SetRGBA(x, y, p)
		}
	}
	var src image.Image = m
	if gray {
		g := image.NewGray(m.Rect)
		for y := range h {
			for x := range w {
				g.Set(x, y, m.At(x, y))
			}
		}
		src = g
	}
	var b bytes.Buffer
	if err := jpeg.Encode(&b, src, &jpeg.Options{Quality: quality}); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// Every kind of JPEG this decoder reads comes out as image/jpeg reads it,
// shrunk: each plane close to the mean of the pixels it stands for (exactly
// that mean, up to rounding and clipping, at 1/8).
func TestMatchesImageJPEG(t *testing.T) {
	files := map[string][]byte{
		"go 4:2:0 q90":      photo(640, 480, false, 90),
		"go 4:2:0 odd size": photo(333, 217, false, 75),
		"go gray":           photo(301, 199, true, 90),
		"go 4:2:0 q100":     photo(160, 120, false, 100),
	}
	for _, f := range []string{"444.jpg", "422.jpg", "440.jpg", "411.jpg", "420-restart.jpg", "gray-restart.jpg", "gray-2x2.jpg", "420-q3-16bit.jpg"} {
		b, err := os.ReadFile(filepath.Join("testdata", f))
		if err != nil {
			t.Fatal(err)
		}
		files[f] = b
	}
	for name, data := range files {
		full, err := jpeg.Decode(bytes.NewReader(data))
		if err != nil {
			t.Fatalf("%s: image/jpeg: %v", name, err)
		}
		fp := planesOf(t, full)
		for _, scale := range []int{2, 4, 8} {
			m, err := Decode(data, scale)
			if err != nil {
				t.Fatalf("%s at 1/%d: %v", name, scale, err)
			}
			b := full.Bounds()
			if want := image.Rect(0, 0, (b.Dx()+scale-1)/scale, (b.Dy()+scale-1)/scale); m.Bounds() != want {
				t.Fatalf("%s at 1/%d: bounds %v, want %v", name, scale, m.Bounds(), want)
			}
			if fy, ok := full.(*image.YCbCr); ok && m.(*image.YCbCr).SubsampleRatio != fy.SubsampleRatio {
				t.Fatalf("%s: ratio %v, want %v", name, m.(*image.YCbCr).SubsampleRatio, fy.SubsampleRatio)
			}
			sp := planesOf(t, m)
			for i := range fp {
				p, worst := psnr(fp[i], sp[i], scale)
				min := 33.0 // the lowest frequencies are not quite a box filter
				if scale == 8 {
					min = 50 // the DC is the mean
				}
				if p < min {
					t.Errorf("%s at 1/%d, plane %d: PSNR %.1f dB (worst %d), want at least %.0f", name, scale, i, p, worst, min)
				}
				if testing.Verbose() {
					t.Logf("%s at 1/%d, plane %d: PSNR %.1f dB (worst %d)", name, scale, i, p, worst)
				}
			}
		}
	}
}

// What it does not read is ErrUnsupported (the caller reads it with
// image/jpeg); what is broken is an error, never a panic.
func TestRefuses(t *testing.T) {
	for _, f := range []string{"progressive.jpg", "rgb.jpg"} {
		b, _ := os.ReadFile(filepath.Join("testdata", f))
		if _, err := Decode(b, 2); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%s: %v, want ErrUnsupported", f, err)
		}
	}
	good := photo(64, 48, false, 90)
	for name, b := range map[string][]byte{
		"empty":     nil,
		"not jpeg":  []byte("\x89PNG\r\n\x1a\n"),
		"truncated": good[:len(good)/2],
		"headers":   good[:300],
	} {
		if _, err := Decode(b, 2); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func FuzzDecode(f *testing.F) {
	f.Add(photo(40, 24, false, 80))
	f.Add(photo(17, 9, true, 50))
	for _, n := range []string{"420-restart.jpg", "411.jpg", "gray-restart.jpg"} {
		b, _ := os.ReadFile(filepath.Join("testdata", n))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if c, err := jpeg.DecodeConfig(bytes.NewReader(data)); err != nil || c.Width*c.Height > 1<<20 {
			return
		}
		m, err := Decode(data, 2)
		if err != nil {
			return
		}
		if b := m.Bounds(); b.Dx() <= 0 || b.Dy() <= 0 {
			t.Fatalf("bounds %v", b)
		}
	})
}

func TestOrientation(t *testing.T) {
	exif := func(order string, o uint16) []byte {
		var b bytes.Buffer
		b.WriteString("\xff\xd8")
		tiff := []byte(order)
		put16 := func(v uint16) {
			if order == "II" {
				tiff = append(tiff, byte(v), byte(v>>8))
			} else {
				tiff = append(tiff, byte(v>>8), byte(v))
			}
		}
		put32 := func(v uint32) { put16(uint16(v >> 16)); put16(uint16(v)) }
		if order == "II" {
			put32 = func(v uint32) { put16(uint16(v)); put16(uint16(v >> 16)) }
		}
		put16(42)
		put32(8)
		put16(2)
		put16(0x010F) // Make, ASCII: not it
		put16(2)
		put32(4)
		put32(0)
		put16(0x0112)
		put16(3)
		put32(1)
		put16(o)
		put16(0)
		seg := append([]byte("Exif\x00\x00"), tiff...)
		b.Write([]byte{0xff, 0xe1, byte((len(seg) + 2) >> 8), byte(len(seg) + 2)})
		b.Write(seg)
		b.Write(photo(16, 16, false, 80)[2:])
		return b.Bytes()
	}
	for _, c := range []struct {
		data []byte
		want int
	}{
		{exif("II", 6), 6}, {exif("MM", 8), 8}, {exif("MM", 3), 3}, {exif("II", 9), 1},
		{photo(16, 16, false, 80), 1}, {[]byte("nothing"), 1}, {exif("II", 6)[:30], 1},
	} {
		if got := Orientation(c.data); got != c.want {
			t.Errorf("orientation = %d, want %d", got, c.want)
		}
	}
	if _, err := Decode(exif("MM", 6), 2); err != nil {
		t.Errorf("a JPEG with EXIF: %v", err)
	}
}

// The reduced inverse DCT samples the block's cosine series at the centres
// of the n×n squares it stands for (rows and columns not swapped).
func TestReducedIDCT(t *testing.T) {
	for _, scale := range []int{2, 4} {
		d := &decoder{scale: scale, n: 8 / scale}
		d.setup()
		n := d.n
		var blk [64]int32
		coef := map[[2]int]int32{{0, 0}: 400, {0, 1}: -120, {1, 0}: 60, {1, 1}: 35}
		if n == 4 {
			coef[[2]int{0, 3}] = 50
			coef[[2]int{2, 1}] = -44
		}
		for k, c := range coef { // k: row (vertical frequency), column
			blk[k[0]*n+k[1]] = c
		}
		out := make([]byte, n*n)
		d.inverse(&blk, true, out, n)
		for i := range n {
			for j := range n {
				y, x := (float64(i)+0.5)*8/float64(n)-0.5, (float64(j)+0.5)*8/float64(n)-0.5
				want := 128.0
				for k, c := range coef {
					cv, cu := 1.0, 1.0
					if k[0] == 0 {
						cv = 1 / math.Sqrt2
					}
					if k[1] == 0 {
						cu = 1 / math.Sqrt2
					}
					want += cv * cu / 4 * float64(c) * math.Cos((2*y+1)*float64(k[0])*math.Pi/16) * math.Cos((2*x+1)*float64(k[1])*math.Pi/16)
				}
				want = math.Max(0, math.Min(255, want))
				if got := float64(out[i*n+j]); math.Abs(got-want) > 1 {
					t.Errorf("1/%d: pixel (%d,%d) = %v, want %.1f", scale, j, i, got, want)
				}
			}
		}
		if blk != [64]int32{} {
			t.Errorf("1/%d: coefficients left in the block", scale)
		}
	}
}

// BenchmarkDecode12MP: a 12-megapixel photo (4000×3000, 4:2:0, quality 90)
// read at half size, against image/jpeg reading it whole.
func BenchmarkDecode12MP(b *testing.B) {
	data := photo(4000, 3000, false, 90)
	b.SetBytes(int64(len(data)))
	b.Run("fastjpeg=1/2", func(b *testing.B) {
		for b.Loop() {
			if _, err := Decode(data, 2); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("image/jpeg", func(b *testing.B) {
		for b.Loop() {
			if _, err := jpeg.Decode(bytes.NewReader(data)); err != nil {
				b.Fatal(err)
			}
		}
	})
}
