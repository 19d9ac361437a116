// Package fastjpeg decodes a baseline JPEG straight to a reduced size: its
// inverse DCT makes (8/scale)² pixels of each 8×8 block from the block's
// lowest frequencies (DCT-domain scaling, as libjpeg's scale_denom does), so a
// 12-megapixel photo read at half size never exists at full size. Its Huffman
// decoder reads from memory with a 64-bit bit buffer and a lookup table that
// decodes a short AC code and its value in one step; that, more than the
// smaller IDCT, is what makes it about twice as fast as image/jpeg.
//
// It reads what cameras and phones write: baseline and extended sequential
// Huffman-coded JPEGs, 8-bit, gray or YCbCr in one interleaved scan, with or
// without restart markers. Anything else (progressive, arithmetic-coded,
// 12-bit, CMYK, RGB, several scans) is ErrUnsupported, and the caller reads it
// with image/jpeg.
package fastjpeg

import (
	"encoding/binary"
	"errors"
	"image"
	"io"
)

// ErrUnsupported is a valid JPEG this decoder does not read.
var ErrUnsupported = errors.New("fastjpeg: unsupported JPEG")

// FormatError is a file that is not a valid JPEG.
type FormatError string

func (e FormatError) Error() string { return "invalid JPEG format: " + string(e) }

// maxPixels bounds the image this decoder allocates for (after scaling), a
// guard behind the caller's own limit.
const maxPixels = 1 << 28

// unzig maps the zig-zag order to the natural order (row*8 + column).
var unzig = [64]int{
	0, 1, 8, 16, 9, 2, 3, 10,
	17, 24, 32, 25, 18, 11, 4, 5,
	12, 19, 26, 33, 40, 48, 41, 34,
	27, 20, 13, 6, 7, 14, 21, 28,
	35, 42, 49, 56, 57, 50, 43, 36,
	29, 22, 15, 23, 30, 37, 44, 51,
	58, 59, 52, 45, 38, 31, 39, 46,
	53, 60, 61, 54, 47, 55, 62, 63,
}

const fastBits = 9

// huffman is one Huffman table: a lookup of fastBits bits for short codes and
// the canonical code ranges for longer ones.
type huffman struct {
	defined bool
	fast    [1 << fastBits]uint16 // length<<8 | symbol; 0: a longer code
	// fastAC decodes an AC code and its value together when both fit in
	// fastBits: value<<8 | run<<4 | bits used; 0: not this way.
	fastAC  [1 << fastBits]int32
	maxcode [17]int32 // the largest code of each length, -1 for none
	mincode [17]int32
	valptr  [17]int32
	vals    [256]byte
}

type component struct {
	id     byte
	h, v   int
	tq     int
	td, ta int
	pred   int32
}

type decoder struct {
	data   []byte
	pos    int
	width  int
	height int
	ncomp  int
	comp   [3]component
	quant  [4][64]int32 // zig-zag order
	qdef   [4]bool
	huff   [2][4]huffman
	ri     int
	adobe  bool
	xform  byte
	sof    bool
	scale  int
	n      int      // output pixels per block side: 8/scale
	keep   [64]int8 // zig-zag index -> index in the n×n block, -1: not kept
	br     bitReader
	planes [3][]byte
	stride [3]int
}

// Decode reads a JPEG at 1/scale of its size (scale 2, 4 or 8): an
// *image.YCbCr, or an *image.Gray for a gray JPEG, of ⌈w/scale⌉×⌈h/scale⌉
// pixels.
func Decode(data []byte, scale int) (image.Image, error) {
	if scale != 2 && scale != 4 && scale != 8 {
		return nil, errors.New("fastjpeg: scale must be 2, 4 or 8")
	}
	d := &decoder{data: data, scale: scale, n: 8 / scale}
	d.setup()
	return d.decode()
}

func (d *decoder) setup() {
	n := d.n
	for k := range d.keep {
		r, c := unzig[k]/8, unzig[k]%8
		d.keep[k] = -1
		if r < n && c < n {
			d.keep[k] = int8(r*n + c)
		}
	}
}

func (d *decoder) decode() (image.Image, error) {
	if len(d.data) < 4 || d.data[0] != 0xFF || d.data[1] != 0xD8 {
		return nil, FormatError("missing SOI marker")
	}
	d.pos = 2
	for {
		marker, err := d.nextMarker()
		if err != nil {
			return nil, err
		}
		switch {
		case marker == 0xD8 || (marker >= 0xD0 && marker <= 0xD7) || marker == 0x01 || marker == 0x00:
			continue // no segment
		case marker == 0xD9:
			return nil, FormatError("no image data")
		}
		if d.pos+2 > len(d.data) {
			return nil, io.ErrUnexpectedEOF
		}
		n := int(binary.BigEndian.Uint16(d.data[d.pos:])) - 2
		d.pos += 2
		if n < 0 || d.pos+n > len(d.data) {
			return nil, io.ErrUnexpectedEOF
		}
		seg := d.data[d.pos : d.pos+n]
		d.pos += n
		switch marker {
		case 0xC0, 0xC1:
			if err := d.readSOF(seg); err != nil {
				return nil, err
			}
		case 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF:
			return nil, ErrUnsupported // progressive, lossless, hierarchical, arithmetic
		case 0xC4:
			if err := d.readDHT(seg); err != nil {
				return nil, err
			}
		case 0xDB:
			if err := d.readDQT(seg); err != nil {
				return nil, err
			}
		case 0xDD:
			if len(seg) != 2 {
				return nil, FormatError("DRI has the wrong length")
			}
			d.ri = int(binary.BigEndian.Uint16(seg))
		case 0xEE:
			if len(seg) >= 12 && string(seg[:5]) == "Adobe" {
				d.adobe, d.xform = true, seg[11]
			}
		case 0xDA:
			if !d.sof {
				return nil, FormatError("scan before frame")
			}
			if err := d.readSOS(seg); err != nil {
				return nil, err
			}
			if err := d.scan(); err != nil {
				return nil, err
			}
			return d.image()
		}
	}
}

// nextMarker skips to the next marker and returns its code.
func (d *decoder) nextMarker() (byte, error) {
	for d.pos < len(d.data) && d.data[d.pos] != 0xFF {
		d.pos++ // garbage between segments, tolerated as libjpeg does
	}
	for d.pos < len(d.data) && d.data[d.pos] == 0xFF {
		d.pos++
	}
	if d.pos >= len(d.data) {
		return 0, io.ErrUnexpectedEOF
	}
	m := d.data[d.pos]
	d.pos++
	return m, nil
}

func (d *decoder) readSOF(seg []byte) error {
	if d.sof {
		return FormatError("two frames")
	}
	if len(seg) < 6 {
		return FormatError("SOF is too short")
	}
	if seg[0] != 8 {
		return ErrUnsupported // 12-bit
	}
	d.height = int(binary.BigEndian.Uint16(seg[1:]))
	d.width = int(binary.BigEndian.Uint16(seg[3:]))
	d.ncomp = int(seg[5])
	if d.height == 0 {
		return ErrUnsupported // the height comes later (DNL)
	}
	if d.width == 0 {
		return FormatError("zero width")
	}
	if d.ncomp != 1 && d.ncomp != 3 {
		return ErrUnsupported // CMYK and others
	}
	if len(seg) != 6+3*d.ncomp {
		return FormatError("SOF has the wrong length")
	}
	for i := range d.ncomp {
		c := &d.comp[i]
		c.id, c.h, c.v, c.tq = seg[6+3*i], int(seg[7+3*i]>>4), int(seg[7+3*i]&15), int(seg[8+3*i])
		if c.h < 1 || c.h > 4 || c.v < 1 || c.v > 4 || c.tq > 3 {
			return FormatError("bad component")
		}
	}
	if d.ncomp == 3 && d.comp[0].id == 'R' && d.comp[1].id == 'G' && d.comp[2].id == 'B' {
		return ErrUnsupported
	}
	if w, h := (d.width+d.scale-1)/d.scale, (d.height+d.scale-1)/d.scale; w*h > maxPixels {
		return FormatError("image too large")
	}
	d.sof = true
	return nil
}

func (d *decoder) readDQT(seg []byte) error {
	for len(seg) > 0 {
		pq, tq := seg[0]>>4, int(seg[0]&15)
		if tq > 3 || pq > 1 {
			return FormatError("bad DQT")
		}
		seg = seg[1:]
		size := 64 << pq
		if len(seg) < size {
			return FormatError("DQT is too short")
		}
		for k := range 64 {
			if pq == 0 {
				d.quant[tq][k] = int32(seg[k])
			} else {
				d.quant[tq][k] = int32(binary.BigEndian.Uint16(seg[2*k:]))
			}
		}
		d.qdef[tq] = true
		seg = seg[size:]
	}
	return nil
}

func (d *decoder) readDHT(seg []byte) error {
	for len(seg) > 0 {
		if len(seg) < 17 {
			return FormatError("DHT is too short")
		}
		tc, th := int(seg[0]>>4), int(seg[0]&15)
		if tc > 1 || th > 3 {
			return FormatError("bad DHT")
		}
		var counts [16]int
		total := 0
		for i := range 16 {
			counts[i] = int(seg[1+i])
			total += counts[i]
		}
		if total == 0 || total > 256 || len(seg) < 17+total {
			return FormatError("bad DHT counts")
		}
		if err := d.huff[tc][th].build(counts, seg[17:17+total]); err != nil {
			return err
		}
		seg = seg[17+total:]
	}
	return nil
}

func (h *huffman) build(counts [16]int, vals []byte) error {
	*h = huffman{defined: true}
	copy(h.vals[:], vals)
	code, k := int32(0), int32(0)
	for l := 1; l <= 16; l++ {
		cnt := int32(counts[l-1])
		h.valptr[l], h.mincode[l] = k, code
		h.maxcode[l] = -1
		if cnt > 0 {
			h.maxcode[l] = code + cnt - 1
		}
		if code+cnt > 1<<l {
			return FormatError("bad Huffman table")
		}
		if l <= fastBits {
			for i := range cnt {
				c := code + i
				span := int32(1) << (fastBits - l)
				for j := c * span; j < (c+1)*span; j++ {
					h.fast[j] = uint16(l)<<8 | uint16(vals[k+i])
				}
			}
		}
		code += cnt
		k += cnt
		code <<= 1
	}
	for i, f := range h.fast {
		if f == 0 {
			continue
		}
		l, rs := int(f>>8), int(f&0xFF)
		run, s := rs>>4, rs&15
		if s == 0 || l+s > fastBits {
			continue
		}
		v := int32(i>>(fastBits-l-s)) & (1<<s - 1)
		if v < 1<<(s-1) {
			v += -1<<s + 1
		}
		h.fastAC[i] = v<<8 | int32(run)<<4 | int32(l+s)
	}
	return nil
}

func (d *decoder) readSOS(seg []byte) error {
	if len(seg) < 1 {
		return FormatError("SOS is too short")
	}
	ns := int(seg[0])
	if len(seg) != 4+2*ns {
		return FormatError("SOS has the wrong length")
	}
	if ns != d.ncomp {
		return ErrUnsupported // one scan per component
	}
	for i := range ns {
		id, t := seg[1+2*i], seg[2+2*i]
		c := -1
		for j := range d.ncomp {
			if d.comp[j].id == id {
				c = j
			}
		}
		if c != i {
			return ErrUnsupported // components in another order
		}
		d.comp[c].td, d.comp[c].ta = int(t>>4), int(t&15)
		if d.comp[c].td > 3 || d.comp[c].ta > 3 || !d.huff[0][d.comp[c].td].defined || !d.huff[1][d.comp[c].ta].defined {
			return FormatError("scan names an undefined Huffman table")
		}
		if !d.qdef[d.comp[c].tq] {
			return FormatError("frame names an undefined quantization table")
		}
	}
	ss, se, a := seg[1+2*ns], seg[2+2*ns], seg[3+2*ns]
	if ss != 0 || se != 63 || a != 0 {
		return ErrUnsupported
	}
	if d.ncomp == 3 && d.adobe && d.xform != 1 {
		return ErrUnsupported // RGB
	}
	return nil
}

// scan decodes the one scan into the planes.
func (d *decoder) scan() error {
	n := d.n
	d.br = bitReader{data: d.data, pos: d.pos}
	var mcux, mcuy int
	var blocksW, blocksH [3]int // blocks per MCU
	if d.ncomp == 1 {
		// One component: blocks in raster order, whatever its sampling factors.
		mcux, mcuy = (d.width+7)/8, (d.height+7)/8
		blocksW[0], blocksH[0] = 1, 1
	} else {
		hmax, vmax := 0, 0
		for i := range d.ncomp {
			hmax, vmax = max(hmax, d.comp[i].h), max(vmax, d.comp[i].v)
		}
		mcux, mcuy = (d.width+8*hmax-1)/(8*hmax), (d.height+8*vmax-1)/(8*vmax)
		for i := range d.ncomp {
			blocksW[i], blocksH[i] = d.comp[i].h, d.comp[i].v
		}
	}
	for i := range d.ncomp {
		d.stride[i] = mcux * blocksW[i] * n
		d.planes[i] = make([]byte, d.stride[i]*mcuy*blocksH[i]*n)
	}
	var blk [64]int32
	restarts := 0
	total := mcux * mcuy
	for m := range total {
		if d.ri > 0 && m > 0 && m%d.ri == 0 {
			if err := d.restart(); err != nil {
				return err
			}
			restarts++
		}
		mx, my := m%mcux, m/mcux
		for i := range d.ncomp {
			c := &d.comp[i]
			dc, ac, q := &d.huff[0][c.td], &d.huff[1][c.ta], &d.quant[c.tq]
			for v := range blocksH[i] {
				for h := range blocksW[i] {
					off := ((my*blocksH[i]+v)*n)*d.stride[i] + (mx*blocksW[i]+h)*n
					if err := d.block(c, dc, ac, q, &blk, d.planes[i][off:], d.stride[i]); err != nil {
						return err
					}
				}
			}
		}
		if d.br.eof && d.br.fakeBitsUsed() > 0 {
			return io.ErrUnexpectedEOF
		}
	}
	return nil
}

// restart expects an RSTn marker: the bits left before it are padding.
func (d *decoder) restart() error {
	p := d.br.pos
	for p+1 < len(d.data) {
		if d.data[p] == 0xFF {
			m := d.data[p+1]
			switch {
			case m >= 0xD0 && m <= 0xD7:
				d.br = bitReader{data: d.data, pos: p + 2}
				for i := range d.ncomp {
					d.comp[i].pred = 0
				}
				return nil
			case m == 0xFF || m == 0x00:
			default:
				return FormatError("missing RST marker")
			}
		}
		p++
	}
	return io.ErrUnexpectedEOF
}

// block decodes one 8×8 block and writes its n×n pixels at out (stride).
func (d *decoder) block(c *component, dc, ac *huffman, q *[64]int32, blk *[64]int32, out []byte, stride int) error {
	br := &d.br
	if br.n < 32 {
		br.fill()
	}
	s, ok := br.symbol(dc)
	if !ok {
		return FormatError("bad Huffman code")
	}
	if s > 15 {
		return FormatError("bad DC value")
	}
	if s > 0 {
		c.pred += br.receive(uint(s))
	}
	blk[0] = c.pred * q[0]
	keep := &d.keep
	anyAC := false
	// The AC loop keeps the bit buffer in locals (the hot loop of the
	// decoder): written back around fill and at the end.
	acc, nb := br.acc, br.n
	for k := 1; k < 64; {
		if nb < 32 {
			br.acc, br.n = acc, nb
			br.fill()
			acc, nb = br.acc, br.n
		}
		peek := acc >> (64 - fastBits)
		if f := ac.fastAC[peek]; f != 0 { // code and value at once
			k += int(f>>4) & 15
			l := uint(f & 15)
			acc <<= l
			nb -= l
			if k > 63 {
				return FormatError("bad AC run")
			}
			if z := keep[k]; z >= 0 {
				blk[z] = (f >> 8) * q[k]
				anyAC = true
			}
			k++
			continue
		}
		var rs byte
		if f := ac.fast[peek]; f != 0 {
			l := uint(f >> 8)
			acc <<= l
			nb -= l
			rs = byte(f)
		} else {
			br.acc, br.n = acc, nb
			r, ok := br.symbol(ac)
			if !ok {
				return FormatError("bad Huffman code")
			}
			acc, nb, rs = br.acc, br.n, r
		}
		run, size := int(rs>>4), uint(rs&15)
		if size == 0 {
			if run != 15 {
				break // end of block
			}
			k += 16
			continue
		}
		k += run
		if k > 63 {
			return FormatError("bad AC run")
		}
		v := int32(acc >> (64 - size))
		acc <<= size
		nb -= size
		if v < 1<<(size-1) {
			v += -1<<size + 1
		}
		if z := keep[k]; z >= 0 {
			blk[z] = v * q[k]
			anyAC = true
		}
		k++
	}
	br.acc, br.n = acc, nb
	d.inverse(blk, anyAC, out, stride)
	return nil
}

// inverse writes the n×n pixels of a block's lowest n×n frequencies and
// clears the coefficients it used.
func (d *decoder) inverse(blk *[64]int32, anyAC bool, out []byte, stride int) {
	n := d.n
	if !anyAC {
		v := clamp((blk[0]+4)>>3 + 128)
		for y := range n {
			row := out[y*stride : y*stride+n]
			for x := range row {
				row[x] = v
			}
		}
		blk[0] = 0
		return
	}
	if n == 2 {
		idct2(blk, out, stride)
		return
	}
	idct4(blk, out, stride)
}

// The 4-point inverse DCT of the lowest four frequencies, C(u)/2·cos((2i+1)uπ/8),
// split into its even and odd halves.
const (
	k0 = 0.35355339 // C(0)/2 = cos(π/4)/2
	k1 = 0.46193977 // cos(π/8)/2
	k3 = 0.19134172 // cos(3π/8)/2
)

// idct4 writes the 4×4 pixels of blk's lowest 4×4 frequencies (rows of
// blk[0:16]) and clears them.
func idct4(blk *[64]int32, out []byte, stride int) {
	var t [16]float32
	for v := 0; v < 16; v += 4 { // each row of coefficients to 4 columns
		f0, f1, f2, f3 := blk[v], blk[v+1], blk[v+2], blk[v+3]
		if f0|f1|f2|f3 == 0 {
			continue
		}
		e0, e1 := k0*float32(f0+f2), k0*float32(f0-f2)
		o0, o1 := k1*float32(f1)+k3*float32(f3), k3*float32(f1)-k1*float32(f3)
		t[v], t[v+1], t[v+2], t[v+3] = e0+o0, e1+o1, e1-o1, e0-o0
		blk[v], blk[v+1], blk[v+2], blk[v+3] = 0, 0, 0, 0
	}
	_ = out[3*stride+3]
	for x := range 4 { // each column to 4 pixels
		f0, f1, f2, f3 := t[x], t[4+x], t[8+x], t[12+x]
		e0, e1 := k0*(f0+f2)+128.5, k0*(f0-f2)+128.5
		o0, o1 := k1*f1+k3*f3, k3*f1-k1*f3
		out[x] = clampf(e0 + o0)
		out[stride+x] = clampf(e1 + o1)
		out[2*stride+x] = clampf(e1 - o1)
		out[3*stride+x] = clampf(e0 - o0)
	}
}

// idct2 writes the 2×2 pixels of blk's lowest 2×2 frequencies (blk[0:4]) and
// clears them.
func idct2(blk *[64]int32, out []byte, stride int) {
	f00, f01, f10, f11 := float32(blk[0]), float32(blk[1]), float32(blk[2]), float32(blk[3])
	blk[0], blk[1], blk[2], blk[3] = 0, 0, 0, 0
	a, b := f00+f10, f00-f10 // both rows' sum and difference, first column
	c, d := f01+f11, f01-f11 // and second
	const k = k0 * k0        // 1/8
	_ = out[stride+1]
	out[0] = clampf(k*(a+c) + 128.5)
	out[1] = clampf(k*(a-c) + 128.5)
	out[stride] = clampf(k*(b+d) + 128.5)
	out[stride+1] = clampf(k*(b-d) + 128.5)
}

func clamp(v int32) byte {
	switch {
	case v < 0:
		return 0
	case v > 255:
		return 255
	}
	return byte(v)
}

func clampf(v float32) byte {
	switch {
	case v < 0:
		return 0
	case v >= 255:
		return 255
	}
	return byte(v)
}

// image wraps the planes as the image they make.
func (d *decoder) image() (image.Image, error) {
	r := image.Rect(0, 0, (d.width+d.scale-1)/d.scale, (d.height+d.scale-1)/d.scale)
	if d.ncomp == 1 {
		return &image.Gray{Pix: d.planes[0], Stride: d.stride[0], Rect: r}, nil
	}
	c0, c1, c2 := d.comp[0], d.comp[1], d.comp[2]
	if c1.h != c2.h || c1.v != c2.v || c0.h%c1.h != 0 || c0.v%c1.v != 0 {
		return nil, ErrUnsupported
	}
	var ratio image.YCbCrSubsampleRatio
	switch [2]int{c0.h / c1.h, c0.v / c1.v} {
	case [2]int{1, 1}:
		ratio = image.YCbCrSubsampleRatio444
	case [2]int{2, 1}:
		ratio = image.YCbCrSubsampleRatio422
	case [2]int{2, 2}:
		ratio = image.YCbCrSubsampleRatio420
	case [2]int{1, 2}:
		ratio = image.YCbCrSubsampleRatio440
	case [2]int{4, 1}:
		ratio = image.YCbCrSubsampleRatio411
	case [2]int{4, 2}:
		ratio = image.YCbCrSubsampleRatio410
	default:
		return nil, ErrUnsupported
	}
	return &image.YCbCr{Y: d.planes[0], Cb: d.planes[1], Cr: d.planes[2], YStride: d.stride[0], CStride: d.stride[1],
		SubsampleRatio: ratio, Rect: r}, nil
}

// bitReader reads entropy-coded bits, most significant first, from memory:
// byte stuffing (0xFF 0x00) undone; at a marker or the end it reads zeros.
type bitReader struct {
	acc    uint64 // the next bits, at the top
	n      uint   // bits in acc
	data   []byte
	pos    int
	marker bool // reached a marker: zeros from here
	eof    bool // reached the end of the data: zeros from here
	fake   int  // zero bytes given after a marker or the end
}

// fill tops acc up to at least 57 bits.
func (b *bitReader) fill() {
	if !b.marker && !b.eof && b.pos+8 <= len(b.data) {
		// The common case: the next 8 bytes hold no 0xFF (no stuffing, no
		// marker), and as many as fit go in at once.
		v := binary.BigEndian.Uint64(b.data[b.pos:])
		if x := ^v; (x-0x0101010101010101)&^x&0x8080808080808080 == 0 {
			k := (64 - b.n) >> 3
			b.acc |= v >> (64 - 8*k) << (64 - 8*k - b.n)
			b.pos += int(k)
			b.n += 8 * k
			return
		}
	}
	for b.n <= 56 {
		var c byte
		switch {
		case b.marker || b.eof:
			b.fake++
		case b.pos >= len(b.data):
			b.eof = true
			b.fake++
		default:
			c = b.data[b.pos]
			if c != 0xFF {
				b.pos++
				break
			}
			if b.pos+1 < len(b.data) && b.data[b.pos+1] == 0 {
				b.pos += 2
				break
			}
			if b.pos+1 >= len(b.data) {
				b.eof = true
			} else {
				b.marker = true
			}
			c = 0
			b.fake++
		}
		b.acc |= uint64(c) << (56 - b.n)
		b.n += 8
	}
}

// fakeBitsUsed is how many of the zeros given at the end were read as data.
func (b *bitReader) fakeBitsUsed() int { return b.fake*8 - int(b.n) }

// symbol decodes one Huffman symbol (acc holds at least 16 bits).
func (b *bitReader) symbol(h *huffman) (byte, bool) {
	if f := h.fast[b.acc>>(64-fastBits)]; f != 0 {
		l := uint(f >> 8)
		b.acc <<= l
		b.n -= l
		return byte(f), true
	}
	for l := fastBits + 1; l <= 16; l++ {
		code := int32(b.acc >> (64 - l))
		if code <= h.maxcode[l] {
			b.acc <<= uint(l)
			b.n -= uint(l)
			i := h.valptr[l] + code - h.mincode[l]
			if i < 0 || i > 255 {
				return 0, false
			}
			return h.vals[i], true
		}
	}
	return 0, false
}

// receive reads s bits (1..15) and extends their sign (F.2.2.1).
func (b *bitReader) receive(s uint) int32 {
	v := int32(b.acc >> (64 - s))
	b.acc <<= s
	b.n -= s
	if v < 1<<(s-1) {
		v += -1<<s + 1
	}
	return v
}

// Orientation is the EXIF orientation of a JPEG (1 to 8; 1, upright, when it
// has none): how its pixels must be turned to be seen upright.
func Orientation(data []byte) int {
	if len(data) < 4 || data[0] != 0xFF || data[1] != 0xD8 {
		return 1
	}
	p := 2
	for p+4 <= len(data) {
		if data[p] != 0xFF {
			return 1
		}
		m := data[p+1]
		if m == 0xFF {
			p++
			continue
		}
		if m == 0xDA || m == 0xD9 {
			return 1
		}
		if m == 0x01 || (m >= 0xD0 && m <= 0xD8) { // no segment
			p += 2
			continue
		}
		n := int(binary.BigEndian.Uint16(data[p+2:]))
		if n < 2 || p+2+n > len(data) {
			return 1
		}
		seg := data[p+4 : p+2+n]
		if m == 0xE1 && len(seg) > 14 && string(seg[:6]) == "Exif\x00\x00" {
			if o := exifOrientation(seg[6:]); o != 0 {
				return o
			}
		}
		p += 2 + n
	}
	return 1
}

// exifOrientation reads tag 0x0112 of a TIFF header's first IFD (0: none).
func exifOrientation(t []byte) int {
	var bo binary.ByteOrder
	switch string(t[:2]) {
	case "II":
		bo = binary.LittleEndian
	case "MM":
		bo = binary.BigEndian
	default:
		return 0
	}
	if bo.Uint16(t[2:]) != 42 {
		return 0
	}
	ifd := int(bo.Uint32(t[4:]))
	if ifd < 8 || ifd+2 > len(t) {
		return 0
	}
	count := int(bo.Uint16(t[ifd:]))
	for i := range count {
		e := ifd + 2 + 12*i
		if e+12 > len(t) {
			return 0
		}
		if bo.Uint16(t[e:]) == 0x0112 && bo.Uint16(t[e+2:]) == 3 {
			if o := int(bo.Uint16(t[e+8:])); o >= 1 && o <= 8 {
				return o
			}
			return 0
		}
	}
	return 0
}
