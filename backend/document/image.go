package document

import (
	"bytes"
	"errors"
	"fmt"
	"image"
	"image/draw"
	"image/gif"
	"image/jpeg"
	"image/png"
	"math"
	"strconv"

	"golang.org/x/image/tiff"
	"golang.org/x/image/webp"

	"hermes/backend/document/internal/fastjpeg"
)

// KindImage is a picture attached to a message (PNG, JPEG, WebP, GIF): stored
// and sent downscaled, with no text.
const KindImage = "image"

// Image limits and sizes.
const (
	// MaxImageBytes is the largest image file that can be attached (a photo
	// of a phone's 48-megapixel mode, a 4K screenshot as PNG).
	MaxImageBytes = 20 << 20
	// MaxImagePixels is the most pixels an image may have: its size is read
	// from its header before anything is decoded, so a small file that claims
	// a huge image (a decompression bomb) costs nothing.
	MaxImagePixels = 50_000_000
	// ImageEdge is the long edge of an image as stored and sent to the model,
	// in pixels: larger images are downscaled to it, smaller ones kept.
	ImageEdge = 1024
	// ThumbEdge is the long edge of the composer's preview.
	ThumbEdge = 160
	// MaxImageTokens caps ImageTokens.
	MaxImageTokens = 1280

	imageQuality = 85 // JPEG quality of the stored image
	thumbQuality = 80
)

// MaxFileBytes is the largest file of any kind Extract may be given.
const MaxFileBytes = max(MaxBytes, MaxImageBytes)

// Reasons an image is refused (Refusal.Reason), beside RefusedTooBig.
const (
	RefusedNotImage      = "not_image"       // params: detail
	RefusedTooManyPixels = "too_many_pixels" // params: pixels (W×H), limit
)

// ImageTokens estimates what an image of w×h pixels costs in a vision
// model's context: one token per 28×28-pixel patch, at most MaxImageTokens
// (1024×768 is 37×28 = 1,036). That is Qwen2.5-VL's count (14-pixel patches
// merged two by two); Gemma 3 spends a fixed 256 per image and LLaVA 576, so
// the estimate errs on the side of keeping room, the way the text estimate
// does.
func ImageTokens(w, h int) int {
	if w <= 0 || h <= 0 {
		return 0
	}
	return min(MaxImageTokens, ((w+27)/28)*((h+27)/28))
}

// imageFormat is the image format of a file's bytes ("" when none of those
// attached).
func imageFormat(data []byte) string {
	switch {
	case bytes.HasPrefix(data, []byte("\x89PNG\r\n\x1a\n")):
		return "png"
	case bytes.HasPrefix(data, []byte("\xff\xd8\xff")):
		return "jpeg"
	case bytes.HasPrefix(data, []byte("GIF87a")), bytes.HasPrefix(data, []byte("GIF89a")):
		return "gif"
	case len(data) >= 12 && string(data[:4]) == "RIFF" && string(data[8:12]) == "WEBP":
		return "webp"
	}
	return ""
}

// IsImage is whether a file is read as an image: by its bytes (PNG, JPEG,
// GIF, WebP signatures) or, for bytes that are none of them, its name.
func IsImage(name string, data []byte) bool {
	return imageFormat(data) != "" || KindOf(name) == KindImage
}

// CheckFile refuses a file over its kind's limit (MaxImageBytes for an
// image, a TIFF included, MaxBytes for the rest) before anything reads it.
func CheckFile(name string, data []byte) error {
	if k := parserKind(name, data); k == KindImage || k == kindTIFF {
		return checkImageSize(name, len(data))
	}
	return CheckSize(name, len(data))
}

func checkImageSize(name string, n int) error {
	if n > MaxImageBytes {
		return refuse(RefusedTooBig, name, map[string]string{"size": size(n), "limit": size(MaxImageBytes)},
			ErrTooLarge, "%q is %s; images up to %s can be attached", name, size(n), size(MaxImageBytes))
	}
	return nil
}

func notImage(name string, err error) error {
	detail := detail(err)
	return refuse(RefusedNotImage, name, map[string]string{"detail": detail},
		ErrUnsupported, "%q could not be read as an image (%s); Hermes can attach %s", name, detail, Supported)
}

// extractImage reads an image: its size from its header (refused past
// MaxImagePixels before a pixel is decoded), then the image, downscaled to
// ImageEdge, turned upright (a JPEG's EXIF orientation) and written again as
// JPEG, or PNG when it has transparency, with a ThumbEdge preview. Nothing
// of the file's metadata (EXIF, the place a photo was taken) is kept.
func extractImage(name string, data []byte) (doc Doc, err error) {
	if err := checkImageSize(name, len(data)); err != nil {
		return Doc{}, err
	}
	if len(data) == 0 {
		return Doc{}, refuse(RefusedEmpty, name, nil, ErrNoText, "%q is empty", name)
	}
	format := imageFormat(data)
	if format == "" {
		return Doc{}, notImage(name, errors.New("not a PNG, JPEG, WebP or GIF file"))
	}
	defer func() { // the decoders are given untrusted bytes: a panic is an unreadable file
		if r := recover(); r != nil {
			doc, err = Doc{}, notImage(name, errors.New("malformed file"))
		}
	}()
	src, err := decodeChecked(name, data, format, ImageEdge)
	if err != nil {
		return Doc{}, err
	}
	m := shrink(src, ImageEdge)
	transparent := !opaque(m) // averaged exactly: an opaque image stays opaque
	if format == "jpeg" {
		m = orient(m, fastjpeg.Orientation(data))
	}
	enc, mime, err := encodeImage(m, transparent, imageQuality)
	if err != nil {
		return Doc{}, notImage(name, err)
	}
	thumb, thumbMime, err := encodeImage(shrink(m, ThumbEdge), transparent, thumbQuality)
	if err != nil {
		return Doc{}, notImage(name, err)
	}
	b := m.Bounds()
	return Doc{Name: name, Kind: KindImage, Data: enc, Mime: mime, Width: b.Dx(), Height: b.Dy(), Thumb: thumb, ThumbMime: thumbMime}, nil
}

// decodeChecked decodes an image of a known format once its header says it
// has pixels, and at most MaxImagePixels: a small file that claims a huge
// image (a decompression bomb) is refused before a pixel is decoded. A JPEG
// at least twice edge may be decoded at a fraction of its size (never below
// edge). Its errors are refusals; the caller recovers a decoder's panic.
func decodeChecked(name string, data []byte, format string, edge int) (image.Image, error) {
	cfg, err := decodeConfig(format, data)
	if err != nil {
		return nil, notImage(name, err)
	}
	if err := checkPixels(name, cfg); err != nil {
		return nil, err
	}
	m, err := decodeImage(format, data, cfg, edge)
	if err != nil {
		return nil, notImage(name, err)
	}
	return m, nil
}

// checkPixels refuses an image of no pixels or more than MaxImagePixels.
func checkPixels(name string, cfg image.Config) error {
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return notImage(name, errors.New("it has no pixels"))
	}
	if px := int64(cfg.Width) * int64(cfg.Height); px > MaxImagePixels {
		mp := strconv.FormatInt((px+500_000)/1_000_000, 10)
		limit := strconv.Itoa(MaxImagePixels/1_000_000) + " megapixels"
		return refuse(RefusedTooManyPixels, name, map[string]string{"pixels": fmt.Sprintf("%d×%d", cfg.Width, cfg.Height), "limit": limit},
			ErrTooLarge, "%q is %d×%d pixels (%s megapixels); images up to %s can be attached", name, cfg.Width, cfg.Height, mp, limit)
	}
	return nil
}

func decodeConfig(format string, data []byte) (image.Config, error) {
	r := bytes.NewReader(data)
	switch format {
	case "png":
		return png.DecodeConfig(r)
	case "jpeg":
		return jpeg.DecodeConfig(r)
	case "gif":
		return gif.DecodeConfig(r)
	case "tiff":
		return tiff.DecodeConfig(r)
	}
	return webp.DecodeConfig(r)
}

// decodeImage decodes the image (a GIF's first frame).
// A JPEG at least twice edge is read at 1/2, 1/4 or 1/8 of its size
// (fastjpeg), never below edge; what fastjpeg does not read, image/jpeg does.
func decodeImage(format string, data []byte, cfg image.Config, edge int) (image.Image, error) {
	r := bytes.NewReader(data)
	switch format {
	case "png":
		return png.Decode(r)
	case "gif":
		return gif.Decode(r)
	case "webp":
		return webp.Decode(r)
	}
	if s := jpegScale(cfg.Width, cfg.Height, edge); s > 1 {
		if m, err := fastjpeg.Decode(data, s); err == nil {
			return m, nil
		}
	}
	return jpeg.Decode(r)
}

// jpegScale is the largest of 8, 4 and 2 that leaves the long edge at least
// edge (1 when none does).
func jpegScale(w, h, edge int) int {
	long := max(w, h)
	for _, s := range []int{8, 4, 2} {
		if (long+s-1)/s >= edge {
			return s
		}
	}
	return 1
}

// fit is w×h scaled so that its long edge is at most edge, never up.
func fit(w, h, edge int) (int, int) {
	if w <= edge && h <= edge {
		return w, h
	}
	if w >= h {
		return edge, max(1, int(math.Round(float64(h)*float64(edge)/float64(w))))
	}
	return max(1, int(math.Round(float64(w)*float64(edge)/float64(h)))), edge
}

func opaque(m image.Image) bool {
	if o, ok := m.(interface{ Opaque() bool }); ok {
		return o.Opaque()
	}
	return false
}

// shrink is m with its long edge at most edge, each new pixel the average of
// the area of m it covers (a box filter as wide as the scale: no aliasing,
// no ringing). YCbCr and gray images (JPEG, lossy WebP) are scaled plane by
// plane into a 4:2:0 YCbCr image (what the JPEG encoder takes as it is); the
// rest (PNG, GIF, lossless WebP) into RGBA.
//
// The filter was chosen by measurement on the 12-megapixel photo of
// BenchmarkDownscale12MP, against the exact area average computed in float:
// x/image/draw's ApproxBiLinear takes 15 ms but aliases (35 dB), its BiLinear
// and CatmullRom are close (49.5 and 50.7 dB) but take 470 ms and a buffer of
// 32 bytes per output column per source row (100 MB here, 190 MB at 50
// megapixels: more than the cage's heap allows); this filter takes about 8 ms
// for the three planes with one row of buffer.
func shrink(m image.Image, edge int) image.Image {
	b := m.Bounds()
	w, h := fit(b.Dx(), b.Dy(), edge)
	switch m := m.(type) {
	case *image.YCbCr:
		if b.Min == (image.Point{}) {
			return shrinkYCbCr(m, w, h)
		}
	case *image.Gray:
		if b.Min == (image.Point{}) {
			dst := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
			areaPlane(dst.Y, dst.YStride, w, h, m.Pix, m.Stride, b.Dx(), b.Dy())
			for i := range dst.Cb {
				dst.Cb[i], dst.Cr[i] = 128, 128
			}
			return dst
		}
	}
	// Any other image: its rows made RGBA one at a time (image/draw's fast
	// paths for NRGBA, paletted and the rest), then averaged as a plane of
	// 4-byte pixels.
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	line := image.NewRGBA(image.Rect(0, 0, b.Dx(), 1))
	last := -1
	area(dst.Pix, dst.Stride, w, h, b.Dx(), b.Dy(), 4, func(y int) []byte {
		if y != last { // the row two output rows share is made once
			draw.Draw(line, line.Rect, m, image.Pt(b.Min.X, b.Min.Y+y), draw.Src)
			last = y
		}
		return line.Pix
	})
	return dst
}

// chromaSize is the size of a YCbCr image's chroma planes.
func chromaSize(r image.YCbCrSubsampleRatio, w, h int) (int, int) {
	switch r {
	case image.YCbCrSubsampleRatio422:
		return (w + 1) / 2, h
	case image.YCbCrSubsampleRatio420:
		return (w + 1) / 2, (h + 1) / 2
	case image.YCbCrSubsampleRatio440:
		return w, (h + 1) / 2
	case image.YCbCrSubsampleRatio411:
		return (w + 3) / 4, h
	case image.YCbCrSubsampleRatio410:
		return (w + 3) / 4, (h + 1) / 2
	}
	return w, h
}

// shrinkYCbCr scales each plane of m to its place in a w×h 4:2:0 image.
func shrinkYCbCr(m *image.YCbCr, w, h int) *image.YCbCr {
	sw, sh := m.Rect.Dx(), m.Rect.Dy()
	scw, sch := chromaSize(m.SubsampleRatio, sw, sh)
	dst := image.NewYCbCr(image.Rect(0, 0, w, h), image.YCbCrSubsampleRatio420)
	cw, ch := chromaSize(dst.SubsampleRatio, w, h)
	areaPlane(dst.Y, dst.YStride, w, h, m.Y, m.YStride, sw, sh)
	areaPlane(dst.Cb, dst.CStride, cw, ch, m.Cb, m.CStride, scw, sch)
	areaPlane(dst.Cr, dst.CStride, cw, ch, m.Cr, m.CStride, scw, sch)
	return dst
}

// taps are the source pixels each output pixel of a line averages: first
// and weights (fixed point, summing to 1<<weightBits) of each.
type taps struct {
	first []int32
	off   []int32 // where each output pixel's weights start in w (one more entry: the end)
	w     []uint32
}

const weightBits = 14

// areaTaps weighs each of dst output pixels by how much of each of src
// source pixels it covers (a box filter as wide as the scale).
func areaTaps(src, dst int) taps {
	t := taps{first: make([]int32, dst), off: make([]int32, dst+1)}
	f := float64(src) / float64(dst)
	ws := make([]float64, 0, int(f)+2)
	for i := range dst {
		a, b := float64(i)*f, math.Min(float64(i+1)*f, float64(src))
		j0 := min(int(a), src-1)
		ws = ws[:0]
		sum := 0.0
		for j := j0; float64(j) < b; j++ {
			w := math.Min(b, float64(j+1)) - math.Max(a, float64(j))
			ws = append(ws, w)
			sum += w
		}
		t.first[i] = int32(j0)
		t.off[i] = int32(len(t.w))
		total, big := uint32(0), len(t.w)
		for k, w := range ws {
			q := uint32(math.Round(w / sum * (1 << weightBits)))
			t.w = append(t.w, q)
			total += q
			if q > t.w[big] || k == 0 {
				big = len(t.w) - 1
			}
		}
		t.w[big] += 1<<weightBits - total // the rounding's remainder on the largest
	}
	t.off[dst] = int32(len(t.w))
	return t
}

// areaPlane scales a plane of sw×sh bytes to w×h (area).
func areaPlane(dst []byte, dstStride, w, h int, src []byte, srcStride, sw, sh int) {
	area(dst, dstStride, w, h, sw, sh, 1, func(y int) []byte { return src[y*srcStride : y*srcStride+sw] })
}

// area scales an image of sw×sh pixels of bpp bytes (1, or 4 for RGBA),
// whose rows row gives in order, to w×h: each output byte the average of the
// area of the source it covers (for a size it does not shrink: the nearest
// pixels, blended at the edges). It holds one source row at a time.
func area(dst []byte, dstStride, w, h, sw, sh, bpp int, row func(y int) []byte) {
	if w == sw && h == sh {
		for y := range h {
			copy(dst[y*dstStride:y*dstStride+w*bpp], row(y))
		}
		return
	}
	hx, vy := areaTaps(sw, w), areaTaps(sh, h)
	acc := make([]uint32, sw*bpp)
	for y := range h {
		clear(acc)
		first := int(vy.first[y])
		for k, wy := range vy.w[vy.off[y]:vy.off[y+1]] {
			for x, p := range row(first + k)[:sw*bpp] {
				acc[x] += wy * uint32(p)
			}
		}
		// acc holds 14 bits of fraction; 8 are kept, so that a sum of weights
		// times them fits 30 bits.
		out := dst[y*dstStride : y*dstStride+w*bpp]
		if bpp == 1 {
			for x := range out {
				first := int(hx.first[x])
				var s uint32
				for k, wx := range hx.w[hx.off[x]:hx.off[x+1]] {
					s += wx * (acc[first+k] >> 6)
				}
				out[x] = byte((s + 1<<(2*weightBits-7)) >> (2*weightBits - 6))
			}
			continue
		}
		for x := range w {
			first := int(hx.first[x])
			var s [4]uint32
			for k, wx := range hx.w[hx.off[x]:hx.off[x+1]] {
				a := acc[(first+k)*4 : (first+k)*4+4]
				s[0] += wx * (a[0] >> 6)
				s[1] += wx * (a[1] >> 6)
				s[2] += wx * (a[2] >> 6)
				s[3] += wx * (a[3] >> 6)
			}
			o := out[x*4 : x*4+4]
			for c := range 4 {
				o[c] = byte((s[c] + 1<<(2*weightBits-7)) >> (2*weightBits - 6))
			}
		}
	}
}

// orient turns m upright by its EXIF orientation o (2 to 8; 1 is upright).
func orient(m image.Image, o int) image.Image {
	if o < 2 || o > 8 {
		return m
	}
	switch m := m.(type) {
	case *image.YCbCr:
		w, h := m.Rect.Dx(), m.Rect.Dy()
		cw, ch := chromaSize(m.SubsampleRatio, w, h)
		y, ow, oh := turn(m.Y, m.YStride, w, h, 1, o)
		cb, ocw, _ := turn(m.Cb, m.CStride, cw, ch, 1, o)
		cr, _, _ := turn(m.Cr, m.CStride, cw, ch, 1, o)
		return &image.YCbCr{Y: y, Cb: cb, Cr: cr, YStride: ow, CStride: ocw, SubsampleRatio: m.SubsampleRatio, Rect: image.Rect(0, 0, ow, oh)}
	case *image.RGBA:
		pix, ow, oh := turn(m.Pix, m.Stride, m.Rect.Dx(), m.Rect.Dy(), 4, o)
		return &image.RGBA{Pix: pix, Stride: 4 * ow, Rect: image.Rect(0, 0, ow, oh)}
	case *image.Gray:
		pix, ow, oh := turn(m.Pix, m.Stride, m.Rect.Dx(), m.Rect.Dy(), 1, o)
		return &image.Gray{Pix: pix, Stride: ow, Rect: image.Rect(0, 0, ow, oh)}
	}
	return m
}

// turn is a w×h plane of bpp bytes a pixel turned by EXIF orientation o:
// the new plane (packed) and its size.
func turn(pix []byte, stride, w, h, bpp, o int) ([]byte, int, int) {
	ow, oh := w, h
	if o >= 5 {
		ow, oh = h, w
	}
	out := make([]byte, ow*oh*bpp)
	for y := range oh {
		for x := range ow {
			var sx, sy int
			switch o {
			case 2:
				sx, sy = w-1-x, y
			case 3:
				sx, sy = w-1-x, h-1-y
			case 4:
				sx, sy = x, h-1-y
			case 5:
				sx, sy = y, x
			case 6:
				sx, sy = y, h-1-x
			case 7:
				sx, sy = w-1-y, h-1-x
			case 8:
				sx, sy = w-1-y, x
			}
			copy(out[(y*ow+x)*bpp:(y*ow+x+1)*bpp], pix[sy*stride+sx*bpp:sy*stride+(sx+1)*bpp])
		}
	}
	return out, ow, oh
}

// encodeImage writes m as JPEG, or as PNG when transparent.
func encodeImage(m image.Image, transparent bool, quality int) ([]byte, string, error) {
	var b bytes.Buffer
	if transparent {
		if err := png.Encode(&b, m); err != nil {
			return nil, "", err
		}
		return b.Bytes(), "image/png", nil
	}
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: quality}); err != nil {
		return nil, "", err
	}
	return b.Bytes(), "image/jpeg", nil
}
