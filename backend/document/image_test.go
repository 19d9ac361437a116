package document

import (
	"bytes"
	"errors"
	"image"
	"image/color"
	"image/color/palette"
	"image/gif"
	"image/jpeg"
	"math"
	"os"
	"strings"
	"testing"

	"hermes/backend/document/documenttest"
)

func photo(w, h int) *image.RGBA { return documenttest.Photo(w, h) }

func encodeJPEG(_ testing.TB, m image.Image, q int) []byte { return documenttest.JPEG(m, q) }

func encodePNG(_ testing.TB, m image.Image) []byte { return documenttest.PNG(m) }

// decoded is a stored image read back with the standard decoders.
func decoded(t *testing.T, d Doc) image.Image {
	t.Helper()
	m, format, err := image.Decode(bytes.NewReader(d.Data))
	if err != nil {
		t.Fatalf("stored image: %v", err)
	}
	if "image/"+format != d.Mime {
		t.Fatalf("stored as %s, mime says %s", format, d.Mime)
	}
	if b := m.Bounds(); b.Dx() != d.Width || b.Dy() != d.Height {
		t.Fatalf("stored image is %v, doc says %d×%d", b, d.Width, d.Height)
	}
	th, _, err := image.Decode(bytes.NewReader(d.Thumb))
	if err != nil || max(th.Bounds().Dx(), th.Bounds().Dy()) > ThumbEdge || d.ThumbMime == "" {
		t.Fatalf("thumbnail %v (%s): %v", th.Bounds(), d.ThumbMime, err)
	}
	return m
}

// near is whether the colour at (x, y) is within tol of want in each channel.
func near(m image.Image, x, y int, want color.RGBA, tol int) bool {
	r, g, b, _ := m.At(x, y).RGBA()
	d := func(a uint32, b uint8) int { return int(math.Abs(float64(int(a>>8) - int(b)))) }
	return d(r, want.R) <= tol && d(g, want.G) <= tol && d(b, want.B) <= tol
}

// meanPSNR compares a stored image with its source averaged over the area
// each stored pixel stands for.
func meanPSNR(src *image.RGBA, m image.Image) float64 {
	w, h := m.Bounds().Dx(), m.Bounds().Dy()
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	var se float64
	n := 0
	for y := 0; y < h; y += 7 {
		for x := 0; x < w; x += 7 {
			x0, x1, y0, y1 := x*sw/w, (x+1)*sw/w, y*sh/h, (y+1)*sh/h
			var s [3]float64
			c := 0
			for yy := y0; yy < max(y1, y0+1); yy++ {
				for xx := x0; xx < max(x1, x0+1); xx++ {
					p := src.RGBAAt(xx, yy)
					s[0], s[1], s[2] = s[0]+float64(p.R), s[1]+float64(p.G), s[2]+float64(p.B)
					c++
				}
			}
			r, g, b, _ := m.At(x, y).RGBA()
			for i, v := range []uint32{r, g, b} {
				d := float64(v>>8) - s[i]/float64(c)
				se += d * d
				n++
			}
		}
	}
	return 10 * math.Log10(255*255/(se/float64(n)))
}

func TestImageJPEGPhoto(t *testing.T) {
	src := photo(2400, 1800)
	data := encodeJPEG(t, src, 90)
	d, err := Extract("dir/IMG_0042.JPG", data)
	if err != nil {
		t.Fatal(err)
	}
	if d.Name != "IMG_0042.JPG" || d.Kind != KindImage || d.Text != "" || d.Mime != "image/jpeg" || d.Width != 1024 || d.Height != 768 {
		t.Fatalf("doc = %s %s %q %s %d×%d", d.Name, d.Kind, d.Text, d.Mime, d.Width, d.Height)
	}
	m := decoded(t, d)
	if p := meanPSNR(src, m); p < 30 {
		t.Errorf("the stored image is %.1f dB from its source's averages, want at least 30", p)
	}
	if !near(m, 1024/3, 768/2, color.RGBA{240, 220, 30, 255}, 24) {
		t.Errorf("the yellow disc is %v at its centre", m.At(1024/3, 768/2))
	}
	if len(d.Data) > 400<<10 || len(d.Data) >= len(data) {
		t.Errorf("stored %d bytes of a %d-byte file", len(d.Data), len(data))
	}
	if d.Chars() != 0 || ImageTokens(d.Width, d.Height) != 37*28 {
		t.Errorf("chars %d, tokens %d", d.Chars(), ImageTokens(d.Width, d.Height))
	}
}

// Every way a picture arrives: kept at its size when small, PNG kept as PNG
// only when it has transparency, a GIF's first frame, WebP lossy and lossless,
// gray, a progressive JPEG (read by image/jpeg, not fastjpeg).
func TestImageKinds(t *testing.T) {
	webpLossy, _ := os.ReadFile("testdata/video-001.lossy.webp")
	webpAlpha, _ := os.ReadFile("testdata/gopher-doc.with-alpha.lossless.webp")
	progressive, _ := os.ReadFile("internal/fastjpeg/testdata/progressive.jpg")
	grayJPEG, _ := os.ReadFile("internal/fastjpeg/testdata/gray-restart.jpg")

	small := photo(300, 200)
	wide := photo(3000, 600)
	tall := image.NewGray(image.Rect(0, 0, 700, 2100))
	for i := range tall.Pix {
		tall.Pix[i] = uint8(i / 700 % 256)
	}
	alpha := image.NewNRGBA(image.Rect(0, 0, 1600, 1200))
	for y := range 1200 {
		for x := range 1600 {
			if x < 800 {
				alpha.SetNRGBA(x, y, color.NRGBA{200, 30, 30, 255})
			}
		}
	}
	var anim bytes.Buffer
	red := image.NewPaletted(image.Rect(0, 0, 64, 48), palette.Plan9)
	blue := image.NewPaletted(image.Rect(0, 0, 64, 48), palette.Plan9)
	for i := range red.Pix {
		red.Pix[i] = uint8(red.Palette.Index(color.RGBA{255, 0, 0, 255}))
		blue.Pix[i] = uint8(blue.Palette.Index(color.RGBA{0, 0, 255, 255}))
	}
	if err := gif.EncodeAll(&anim, &gif.GIF{Image: []*image.Paletted{red, blue}, Delay: []int{10, 10}}); err != nil {
		t.Fatal(err)
	}

	cases := []struct {
		name, file string
		data       []byte
		mime       string
		w, h       int
		check      func(t *testing.T, m image.Image)
	}{
		{"small png is not upscaled", "shot.png", encodePNG(t, small), "image/jpeg", 300, 200, func(t *testing.T, m image.Image) {
			if p := meanPSNR(small, m); p < 30 {
				t.Errorf("PSNR %.1f", p)
			}
		}},
		{"wide jpeg", "pano.jpeg", encodeJPEG(t, wide, 85), "image/jpeg", 1024, 205, func(t *testing.T, m image.Image) {
			if p := meanPSNR(wide, m); p < 30 {
				t.Errorf("PSNR %.1f", p)
			}
		}},
		{"wide png", "pano.png", encodePNG(t, wide), "image/jpeg", 1024, 205, func(t *testing.T, m image.Image) {
			if p := meanPSNR(wide, m); p < 30 {
				t.Errorf("PSNR %.1f", p)
			}
		}},
		{"tall gray png", "scan.png", encodePNG(t, tall), "image/jpeg", 341, 1024, func(t *testing.T, m image.Image) {
			r, g, b, _ := m.At(170, 512).RGBA()
			if r != g || g != b {
				t.Errorf("gray came back coloured: %v", m.At(170, 512))
			}
		}},
		{"transparent png stays png", "logo.png", encodePNG(t, alpha), "image/png", 1024, 768, func(t *testing.T, m image.Image) {
			if _, _, _, a := m.At(900, 400).RGBA(); a != 0 {
				t.Errorf("transparent half has alpha %d", a)
			}
			if !near(m, 100, 400, color.RGBA{200, 30, 30, 255}, 2) {
				t.Errorf("opaque half is %v", m.At(100, 400))
			}
		}},
		{"gif first frame", "anim.gif", anim.Bytes(), "image/jpeg", 64, 48, func(t *testing.T, m image.Image) {
			if !near(m, 32, 24, color.RGBA{255, 0, 0, 255}, 8) {
				t.Errorf("frame shown is %v, want the first (red)", m.At(32, 24))
			}
		}},
		{"webp lossy", "v.webp", webpLossy, "image/jpeg", 150, 103, nil},
		{"webp with alpha", "g.webp", webpAlpha, "image/png", 75, 100, nil},
		{"progressive jpeg", "p.jpg", progressive, "image/jpeg", 203, 77, nil},
		{"gray jpeg", "g.jpg", grayJPEG, "image/jpeg", 203, 77, nil},
		{"known by its bytes, not its name", "upload.bin", encodePNG(t, small), "image/jpeg", 300, 200, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !NeedsParser(c.file, c.data) {
				t.Errorf("an image is read outside the cage")
			}
			d, err := Extract(c.file, c.data)
			if err != nil {
				t.Fatal(err)
			}
			if d.Kind != KindImage || d.Mime != c.mime || d.Width != c.w || d.Height != c.h {
				t.Fatalf("doc = %s %s %d×%d, want %s %d×%d", d.Kind, d.Mime, d.Width, d.Height, c.mime, c.w, c.h)
			}
			m := decoded(t, d)
			if c.check != nil {
				c.check(t, m)
			}
		})
	}
}

// A photo taken with the phone turned is stored upright (its EXIF
// orientation applied), and no EXIF is stored.
func TestImageOrientation(t *testing.T) {
	src := image.NewRGBA(image.Rect(0, 0, 400, 200))
	for y := range 200 {
		for x := range 400 {
			c := color.RGBA{20, 20, 200, 255} // blue
			if x < 100 && y < 100 {
				c = color.RGBA{220, 20, 20, 255} // red: top left as stored
			}
			src.SetRGBA(x, y, c)
		}
	}
	plain := encodeJPEG(t, src, 90)
	exif := []byte("Exif\x00\x00MM\x00\x2a\x00\x00\x00\x08\x00\x01\x01\x12\x00\x03\x00\x00\x00\x01\x00\x06\x00\x00\x00\x00\x00\x00GPS-secret")
	seg := append([]byte{0xff, 0xe1, byte((len(exif) + 2) >> 8), byte(len(exif) + 2)}, exif...)
	rotated := append(append([]byte{0xff, 0xd8}, seg...), plain[2:]...)
	d, err := Extract("turned.jpg", rotated)
	if err != nil {
		t.Fatal(err)
	}
	if d.Width != 200 || d.Height != 400 {
		t.Fatalf("size %d×%d, want 200×400 (turned a quarter clockwise)", d.Width, d.Height)
	}
	m := decoded(t, d)
	if !near(m, 150, 50, color.RGBA{220, 20, 20, 255}, 30) || !near(m, 50, 50, color.RGBA{20, 20, 200, 255}, 30) {
		t.Errorf("red corner not at the top right: %v at (150,50), %v at (50,50)", m.At(150, 50), m.At(50, 50))
	}
	if bytes.Contains(d.Data, []byte("GPS-secret")) || bytes.Contains(d.Data, []byte("Exif")) {
		t.Error("the stored image keeps the file's EXIF")
	}
}

func pngHeader(w, h uint32) []byte { return documenttest.PNGHeader(w, h, 8) }

func TestImageRefusals(t *testing.T) {
	good := encodePNG(t, photo(64, 48))
	cases := []struct {
		name, file string
		data       []byte
		reason     string
		kind       error
		says       string
	}{
		{"broken png", "photo.png", []byte("\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"), RefusedNotImage, ErrUnsupported, "could not be read as an image"},
		{"cut short", "photo.png", good[:len(good)/2], RefusedNotImage, ErrUnsupported, "could not be read as an image"},
		{"not an image at all", "photo.jpg", []byte("just some words"), RefusedNotImage, ErrUnsupported, "not a PNG, JPEG, WebP or GIF file"},
		{"decompression bomb", "bomb.png", append(pngHeader(100000, 100000), good[33:]...), RefusedTooManyPixels, ErrTooLarge,
			"is 100000×100000 pixels (10000 megapixels); images up to 50 megapixels can be attached"},
		{"just over the pixels", "big.png", pngHeader(10000, 5001), RefusedTooManyPixels, ErrTooLarge, "images up to 50 megapixels"},
		{"too many bytes", "huge.jpg", append([]byte("\xff\xd8\xff"), make([]byte, MaxImageBytes)...), RefusedTooBig, ErrTooLarge, "images up to 20.0 MB"},
		{"empty", "nothing.png", nil, RefusedEmpty, ErrNoText, "is empty"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, err := Extract(c.file, c.data)
			var r *Refusal
			if !errors.As(err, &r) || r.Reason != c.reason || !errors.Is(err, c.kind) {
				t.Fatalf("err = %v, want %s", err, c.reason)
			}
			if !strings.Contains(err.Error(), c.says) || !strings.Contains(err.Error(), `"`+c.file+`"`) || strings.Contains(err.Error(), "\n") {
				t.Errorf("message %q should name the file and say %q on one line", err, c.says)
			}
		})
	}
	// The size is checked from the bytes before the cage is started.
	if err := CheckFile("huge.jpg", make([]byte, MaxImageBytes+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("CheckFile: %v", err)
	}
	if err := CheckFile("fine.jpg", make([]byte, MaxBytes+1)); err != nil {
		t.Errorf("an image over the text limit is refused: %v", err)
	}
	if err := CheckFile("notes.txt", make([]byte, MaxBytes+1)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("a text over its limit: %v", err)
	}
}

func TestImageTokens(t *testing.T) {
	for _, c := range []struct{ w, h, want int }{
		{1024, 768, 37 * 28}, {28, 28, 1}, {29, 28, 2}, {1, 1, 1}, {1024, 1024, MaxImageTokens}, {0, 10, 0},
	} {
		if got := ImageTokens(c.w, c.h); got != c.want {
			t.Errorf("ImageTokens(%d, %d) = %d, want %d", c.w, c.h, got, c.want)
		}
	}
}

// The area filter: a plane of two halves keeps its halves' values, and a
// 2:1 shrink is the mean of each pair.
func TestArea(t *testing.T) {
	src := make([]byte, 8*2)
	for i := range src {
		src[i] = byte(10 * (i % 8))
	}
	dst := make([]byte, 4)
	areaPlane(dst, 4, 4, 1, src, 8, 8, 2)
	if want := []byte{5, 25, 45, 65}; !bytes.Equal(dst, want) {
		t.Errorf("2:1 = %v, want %v", dst, want)
	}
	dst = make([]byte, 3)
	areaPlane(dst, 3, 3, 1, []byte{0, 0, 90, 90, 180, 180}, 6, 6, 1)
	if want := []byte{0, 90, 180}; !bytes.Equal(dst, want) {
		t.Errorf("3:1 = %v, want %v", dst, want)
	}
}

// BenchmarkDownscale12MP is what attaching a 12-megapixel photo costs (the
// target: 150 ms): a 4000×3000 JPEG of quality 90 (gradients, shapes and
// noise: 3.6 MB) read, downscaled to 1024×768 with its preview, and written
// again.
func BenchmarkDownscale12MP(b *testing.B) {
	data := encodeJPEG(b, photo(4000, 3000), 90)
	for b.Loop() {
		d, err := Extract("photo.jpg", data)
		if err != nil || d.Width != 1024 {
			b.Fatal(d.Width, err)
		}
	}
}

// BenchmarkDownscale12MPWithImageJPEG is the same work with image/jpeg
// decoding the whole photo (what fastjpeg saves).
func BenchmarkDownscale12MPWithImageJPEG(b *testing.B) {
	data := encodeJPEG(b, photo(4000, 3000), 90)
	for b.Loop() {
		m, err := jpeg.Decode(bytes.NewReader(data))
		if err != nil {
			b.Fatal(err)
		}
		if _, _, err := encodeImage(shrink(m, ImageEdge), false, imageQuality); err != nil {
			b.Fatal(err)
		}
	}
}

// FuzzExtractImage hands the image readers what the fuzzer makes of valid
// images (small ones: the cage bounds the memory of big ones): every file is
// an image that decodes or one refusal of one line, never a panic.
func FuzzExtractImage(f *testing.F) {
	webpLossy, _ := os.ReadFile("testdata/video-001.lossy.webp")
	restart, _ := os.ReadFile("internal/fastjpeg/testdata/420-restart.jpg")
	var g bytes.Buffer
	gif.Encode(&g, image.NewPaletted(image.Rect(0, 0, 8, 8), palette.Plan9), nil)
	for _, seed := range [][]byte{encodePNG(f, photo(40, 30)), encodeJPEG(f, photo(2100, 40), 80), webpLossy, restart, g.Bytes()} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if format := imageFormat(data); format != "" {
			if c, err := decodeConfig(format, data); err == nil && c.Width*c.Height > 4<<20 {
				return
			}
		}
		d, err := Extract("f.img", data)
		if err != nil {
			var r *Refusal
			if !errors.As(err, &r) || strings.Contains(err.Error(), "\n") {
				t.Fatalf("not one refusal of one line: %q", err)
			}
			return
		}
		if d.Kind != KindImage {
			return // read as text
		}
		if _, _, err := image.Decode(bytes.NewReader(d.Data)); err != nil || d.Width < 1 || d.Width > ImageEdge || d.Height > ImageEdge {
			t.Fatalf("stored image %d×%d: %v", d.Width, d.Height, err)
		}
	})
}
