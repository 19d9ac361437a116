package memory

import (
	"hermes/backend/lazyre"
	"strings"
)

// Masks that replace sensitive data.
const (
	maskEmail   = "[email]"
	maskPhone   = "[phone]"
	maskCard    = "[card number]"
	maskID      = "[ID number]"
	maskAddress = "[address]"
)

var (
	reEmail = lazyre.New(`(?i)[a-z0-9._%+\-]+@[a-z0-9.\-]+\.[a-z]{2,}`)
	// 13 to 19 digits, optionally grouped by spaces or dashes: checked with Luhn.
	reCard = lazyre.New(`\b\d(?:[ \-]?\d){12,18}\b`)
	// Chinese resident ID (18 characters) and US SSN.
	reIDNumber = lazyre.New(`\b\d{17}[\dXx]\b|\b\d{3}-\d{2}-\d{4}\b`)
	// A number shortly after an ID word: "passport number is X12345678", "护照号E1234567".
	reIDAfterWord = lazyre.New(`(?i)(?:passport|id card|identity card|id number|driver'?s licen[cs]e|licen[cs]e number|ssn|social security|身份证|护照|驾照|证件)[^\d\n]{0,24}?\b([A-Z]{0,2}\d[\dA-Z\-]{4,})`)
	// International or grouped phone numbers (8+ digits), and Chinese mobiles.
	rePhone = lazyre.New(`(?:\+\d{1,3}[ \-.]?)?(?:\(\d{1,4}\)[ \-.]?)?\d{2,4}(?:[ \-.]\d{2,4}){2,4}\b|\b1[3-9]\d{9}\b|\+\d{8,15}\b`)
	// Street addresses: "12 Baker Street", "221B Baker St."; "中山路123号", "朝阳区建国路8号".
	reAddressEN = lazyre.New(`\b\d{1,5}[A-Za-z]?\s+(?:[A-Z][a-z]+\s+){1,3}(?:Street|St|Avenue|Ave|Road|Rd|Boulevard|Blvd|Lane|Ln|Drive|Dr|Way|Court|Ct|Place|Pl|Terrace|Square|Sq|Parkway|Highway|Strasse|Straße|Str)\b\.?`)
	reAddressZH = lazyre.New(`[\p{Han}]{1,12}(?:路|街|大道|道|巷|弄|胡同)[\p{Han}\d]{0,6}?\d+\s*号(?:[\p{Han}\d]{0,8}(?:室|楼|栋|单元))?`)
)

// Mask replaces sensitive data in text (phone numbers, emails, ID, passport and
// card numbers, street addresses) and reports whether it found any.
func Mask(text string) (string, bool) {
	found := false
	repl := func(re *lazyre.Regexp, mask string, ok func(string) bool) {
		text = re.ReplaceAllStringFunc(text, func(m string) string {
			if ok != nil && !ok(m) {
				return m
			}
			found = true
			return mask
		})
	}
	repl(reEmail, maskEmail, nil)
	repl(reIDNumber, maskID, nil)
	for {
		loc := reIDAfterWord.FindStringSubmatchIndex(text)
		if loc == nil {
			break
		}
		text, found = text[:loc[2]]+maskID+text[loc[3]:], true
	}
	repl(reCard, maskCard, luhn)
	repl(reAddressEN, maskAddress, nil)
	repl(reAddressZH, maskAddress, nil)
	repl(rePhone, maskPhone, func(m string) bool { return digits(m) >= 8 })
	return text, found
}

// Sensitive reports whether text holds sensitive data (masked or not).
func Sensitive(text string) bool {
	_, found := Mask(text)
	if found {
		return true
	}
	for _, m := range []string{maskEmail, maskPhone, maskCard, maskID, maskAddress} {
		if strings.Contains(text, m) {
			return true
		}
	}
	return false
}

func digits(s string) int {
	n := 0
	for _, r := range s {
		if r >= '0' && r <= '9' {
			n++
		}
	}
	return n
}

// luhn checks a card number's check digit.
func luhn(s string) bool {
	var ds []int
	for _, r := range s {
		if r >= '0' && r <= '9' {
			ds = append(ds, int(r-'0'))
		}
	}
	if len(ds) < 13 {
		return false
	}
	sum := 0
	for i := len(ds) - 1; i >= 0; i-- {
		d := ds[i]
		if (len(ds)-1-i)%2 == 1 {
			d *= 2
			if d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}
