package document

import (
	"bufio"
	"strings"
	"unicode"
)

// A page's languages follow its script. Asked for English and Chinese at
// once, Tesseract reads a Chinese line that starts with a Latin word (a model
// name, a number with its unit) as English, every character of it wrong;
// asked for Chinese alone, it runs English words together. So when both are
// installed, with Tesseract's script detection (osd, part of Debian's
// tesseract-ocr), a page whose script is Han is read as Chinese alone and any
// other in both languages. On build/eval/kb_scan.py's scanned copy of kb-dev
// this took the Chinese questions' hit@5 from 0.70 to the figure in the
// README; a Chinese page also reads faster (one model instead of two, which
// pays for the detection).

// scripts is the choice of languages by script. Detection costs about a
// second a page, so a file's first page is detected and the next ones are
// read as the page before them, until one reads as the other script.
type scripts struct {
	detect bool   // detection data and both languages are installed
	han    string // -l for a page in Chinese script
	last   string // the script of the file's page before: "" to detect
}

// scriptsFor is the choice for the installed languages (have).
func scriptsFor(have map[string]bool) scripts {
	if have["osd"] && have["eng"] && have["chi_sim"] {
		return scripts{detect: true, han: "chi_sim"}
	}
	return scripts{}
}

// languagesOf is -l for one page, and whether its script was detected (or
// need not be). A page whose script is not found (too few characters,
// detection failed) is read in every installed language.
func (t *textRun) languagesOf(src ocrInput) (langs string, detected bool) {
	if !t.script.detect {
		return t.langs, true
	}
	if t.script.last != "" {
		return t.langsFor(t.script.last), false
	}
	cmd, out, _ := t.command(src, "--psm", "0")
	if err := runLocked(cmd); err != nil {
		return t.langs, true
	}
	t.script.last = scriptOf(out.String())
	return t.langsFor(t.script.last), true
}

func (t *textRun) langsFor(script string) string {
	if script == "Han" {
		return t.script.han
	}
	return t.langs
}

// contradicts says a page read as the page before it may be in the other
// script: almost no Chinese read as Chinese, or any Chinese read as Latin (a
// Chinese page read in both languages comes out mostly as Latin garbage with
// some Chinese in it; an English one has none). The page's script is then
// detected, and it is read again if that changes its languages.
func (s scripts) contradicts(text string) bool {
	han, latin := 0, 0
	for _, r := range text {
		switch {
		case unicode.Is(unicode.Han, r):
			han++
		case unicode.Is(unicode.Latin, r):
			latin++
		}
	}
	if s.last != "Han" {
		return han > 0
	}
	return han+latin > 0 && float64(han) < 0.05*float64(han+latin)
}

// scriptOf is the script Tesseract's detection (--psm 0) names: its
// "Script: Han" line.
func scriptOf(osd string) string {
	sc := bufio.NewScanner(strings.NewReader(osd))
	for sc.Scan() {
		if v, ok := strings.CutPrefix(sc.Text(), "Script:"); ok {
			return strings.TrimSpace(v)
		}
	}
	return ""
}
