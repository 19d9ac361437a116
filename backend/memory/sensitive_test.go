package memory

import (
	"strings"
	"testing"
)

func TestMask(t *testing.T) {
	cases := []struct {
		name, in string
		want     string // substring of the masked text
		gone     string // must not remain
	}{
		{"email", "Mail me at jane.doe@example.org please", maskEmail, "jane.doe@example.org"},
		{"phone international", "My number is +44 20 7946 0958", maskPhone, "7946"},
		{"phone grouped", "call 415-555-2671 after six", maskPhone, "555-2671"},
		{"chinese mobile", "我的手机号是13812345678", maskPhone, "13812345678"},
		{"card", "card 4111 1111 1111 1111 expires soon", maskCard, "4111 1111"},
		{"chinese id", "身份证号码是11010519491231002X", maskID, "11010519491231002X"},
		{"passport", "My passport number is X12345678", maskID, "X12345678"},
		{"ssn", "SSN 123-45-6789", maskID, "6789"},
		{"street address", "I live at 221B Baker Street, London", maskAddress, "221B Baker Street"},
		{"chinese address", "我家在中山路123号", maskAddress, "中山路123号"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			got, found := Mask(tc.in)
			if !found || !strings.Contains(got, tc.want) || strings.Contains(got, tc.gone) {
				t.Errorf("Mask(%q) = %q, %v", tc.in, got, found)
			}
			if !Sensitive(got) {
				t.Error("masked text is not reported sensitive")
			}
		})
	}
	clean := []string{"I run 5 km every morning", "My daughter turns six on May 14", "I was born in 1990", "我每天走一万步", "Room 12, floor 3"}
	for _, in := range clean {
		t.Run("clean "+in, func(t *testing.T) {
			if got, found := Mask(in); found || got != in {
				t.Errorf("Mask(%q) = %q, %v; want unchanged", in, got, found)
			}
		})
	}
}
