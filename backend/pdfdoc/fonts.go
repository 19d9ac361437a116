package pdfdoc

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"golang.org/x/image/font/sfnt"
)

// ErrNoFont is a computer without the TrueType font a PDF needs for Chinese
// (and other CJK) text: the PDF is refused rather than drawn with empty boxes.
var ErrNoFont = errors.New("no font for the PDF")

// FontPackage is the Debian package whose font the PDF uses for CJK text (a
// TrueType font: the PDF writer cannot embed the OpenType CJK fonts the window
// uses).
const FontPackage = "fonts-droid-fallback"

// fontDirs are where the fonts are looked for, in order.
var fontDirs = []string{"/usr/share/fonts/truetype", "/usr/local/share/fonts", "/usr/share/fonts"}

// The fonts: the fallback holds Latin and CJK, the others draw Latin text
// better where they are installed (DejaVu is in every Debian desktop).
var fontFiles = map[face][]string{
	fallback: {"droid/DroidSansFallbackFull.ttf", "truetype/droid/DroidSansFallbackFull.ttf"},
	regular:  {"dejavu/DejaVuSans.ttf", "truetype/dejavu/DejaVuSans.ttf"},
	bold:     {"dejavu/DejaVuSans-Bold.ttf", "truetype/dejavu/DejaVuSans-Bold.ttf"},
	mono:     {"dejavu/DejaVuSansMono.ttf", "truetype/dejavu/DejaVuSansMono.ttf"},
}

// face is one font of the document.
type face int

const (
	regular face = iota
	bold
	mono
	fallback
)

func (f face) String() string { return [...]string{"regular", "bold", "mono", "fallback"}[f] }

// font is a loaded font: its bytes (for the PDF) and its glyph table.
type font struct {
	data []byte
	sf   *sfnt.Font
	buf  sfnt.Buffer
}

// has is whether the font draws r.
func (f *font) has(r rune) bool {
	i, err := f.sf.GlyphIndex(&f.buf, r)
	return err == nil && i != 0
}

// loadFonts finds the fonts in dirs; the fallback is required.
func loadFonts(dirs []string) (map[face]*font, error) {
	out := map[face]*font{}
	for f, names := range fontFiles {
		for _, d := range dirs {
			found := false
			for _, n := range names {
				data, err := os.ReadFile(filepath.Join(d, n))
				if err != nil {
					continue
				}
				sf, err := sfnt.Parse(data)
				if err != nil {
					continue
				}
				out[f] = &font{data: data, sf: sf}
				found = true
				break
			}
			if found {
				break
			}
		}
	}
	if out[fallback] == nil {
		return nil, fmt.Errorf("%w: a PDF needs the TrueType font DroidSansFallbackFull.ttf for Chinese text; install it (sudo apt install %s), or export the chat as HTML and print that page to PDF", ErrNoFont, FontPackage)
	}
	return out, nil
}
