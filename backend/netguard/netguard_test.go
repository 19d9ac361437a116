package netguard

import (
	"errors"
	"net/netip"
	"testing"
)

func TestClassify(t *testing.T) {
	cases := []struct {
		addr string
		want Where
	}{
		{"127.0.0.1", Local}, {"::1", Local}, {"10.1.2.3", Local}, {"192.168.1.10", Local},
		{"172.20.0.5", Local}, {"fd12::1", Local}, {"::ffff:192.168.0.1", Local},
		{"8.8.8.8", Internet}, {"2001:4860::8888", Internet},
		{"169.254.169.254", Refused}, {"fe80::1", Refused}, {"fd00:ec2::254", Refused},
		{"100.100.100.200", Refused}, {"0.0.0.0", Refused}, {"224.0.0.1", Refused},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			if got := Classify(netip.MustParseAddr(c.addr)); got != c.want {
				t.Fatalf("Classify(%s) = %d, want %d", c.addr, got, c.want)
			}
		})
	}
}

func TestCheckHostAndControl(t *testing.T) {
	cases := []struct {
		host     string
		internet bool
		want     error
	}{
		{"127.0.0.1", false, nil},
		{"nas.lan", false, nil},
		{"example.com", false, ErrInternet},
		{"example.com", true, nil},
		{"8.8.8.8", false, ErrInternet},
		{"169.254.169.254", true, ErrRefused},
		{"[fd00:ec2::254]", true, ErrRefused},
	}
	for _, c := range cases {
		t.Run(c.host, func(t *testing.T) {
			err := CheckHost(c.host, c.internet, "allow_internet: true")
			if !errors.Is(err, c.want) && (err != nil || c.want != nil) {
				t.Fatalf("CheckHost(%s, %v) = %v, want %v", c.host, c.internet, err, c.want)
			}
		})
	}
	ctl := Control(false, "allow_internet: true")
	if err := ctl("tcp", "127.0.0.1:80", nil); err != nil {
		t.Fatal(err)
	}
	if err := ctl("tcp", "1.1.1.1:443", nil); !errors.Is(err, ErrInternet) {
		t.Fatalf("internet address: %v", err)
	}
	if err := Control(true, "")("tcp", "169.254.169.254:80", nil); !errors.Is(err, ErrRefused) {
		t.Fatalf("metadata address: %v", err)
	}
}

func TestCheckOffline(t *testing.T) {
	cases := []struct {
		addr string
		ok   bool
	}{
		{"127.0.0.1", true}, {"127.8.9.10", true}, {"::1", true}, {"::ffff:127.0.0.1", true},
		{"10.255.255.1", false}, {"192.168.1.10", false}, {"fd12::1", false}, {"8.8.8.8", false}, {"169.254.169.254", false},
	}
	for _, c := range cases {
		t.Run(c.addr, func(t *testing.T) {
			err := CheckOffline(netip.MustParseAddr(c.addr))
			if c.ok != (err == nil) || (err != nil && !errors.Is(err, ErrOffline)) {
				t.Fatalf("CheckOffline(%s) = %v, want allowed=%v", c.addr, err, c.ok)
			}
		})
	}
	if err := Check(netip.MustParseAddr("8.8.8.8"), false); !errors.Is(err, ErrInternet) {
		t.Fatalf("Check internet without permission: %v", err)
	}
	if err := Check(netip.MustParseAddr("10.1.2.3"), false); err != nil {
		t.Fatalf("Check LAN: %v", err)
	}
}
