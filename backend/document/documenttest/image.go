package documenttest

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math"
	"math/rand"
)

// Photo is a w×h picture with a photo's worth of detail for an encoder:
// gradients, a yellow disc (centred at w/3, h/2, radius h/5) and noise.
func Photo(w, h int) *image.RGBA {
	r := rand.New(rand.NewSource(int64(w*7 + h)))
	m := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			n := r.Intn(25) - 12
			c := func(v int) uint8 { return uint8(min(255, max(0, v+n))) }
			p := color.RGBA{c(x * 255 / w), c(y * 255 / h), c(128 + int(80*math.Sin(float64(x+y)/40))), 255}
			if dx, dy := x-w/3, y-h/2; dx*dx+dy*dy < (h/5)*(h/5) {
				p = color.RGBA{c(240), c(220), c(30), 255}
			}
			m.SetRGBA(x, y, p)
		}
	}
	return m
}

// JPEG is m as a JPEG of the given quality.
func JPEG(m image.Image, quality int) []byte {
	var b bytes.Buffer
	if err := jpeg.Encode(&b, m, &jpeg.Options{Quality: quality}); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// PNG is m as a PNG.
func PNG(m image.Image) []byte {
	var b bytes.Buffer
	if err := png.Encode(&b, m); err != nil {
		panic(err)
	}
	return b.Bytes()
}

// PNGHeader is a PNG's signature and IHDR chunk (with its CRC) claiming w×h
// pixels of depth bits per channel, RGBA: a decompression bomb's header.
func PNGHeader(w, h uint32, depth byte) []byte {
	b := []byte("\x89PNG\r\n\x1a\n")
	ihdr := binary.BigEndian.AppendUint32(nil, w)
	ihdr = binary.BigEndian.AppendUint32(ihdr, h)
	return chunk(b, "IHDR", append(ihdr, depth, 6, 0, 0, 0))
}

// PNGBomb is a small PNG that claims w×h 16-bit RGBA pixels (8 bytes each,
// allocated before its pixels are read) and holds a few: under the pixel
// limit, over a memory limit.
func PNGBomb(w, h uint32) []byte {
	b := PNGHeader(w, h, 16)
	b = chunk(b, "IDAT", []byte{0x78, 0x9c, 0x63, 0, 0, 0, 1, 0, 1}) // zlib: one zero byte
	return chunk(b, "IEND", nil)
}

func chunk(b []byte, typ string, data []byte) []byte {
	b = binary.BigEndian.AppendUint32(b, uint32(len(data)))
	c := append([]byte(typ), data...)
	b = append(b, c...)
	return binary.BigEndian.AppendUint32(b, crc32.ChecksumIEEE(c))
}
