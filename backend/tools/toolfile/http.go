package toolfile

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"
	"unicode/utf8"

	"hermes/backend/egress"
)

// maxResponse caps what is read of a response or a command's output.
const maxResponse = 1 << 20

// httpExec calls an HTTP endpoint.
type httpExec struct {
	method  string
	url     template
	query   []bool // per part of url: is it in the query (or fragment)?
	headers http.Header
	client  *http.Client
}

// newHTTPExec prepares the calls, dialled by dial (which checks every address);
// secret names the headers whose values come from ${VAR}: they are dropped
// when a redirect leaves the URL's origin.
func newHTTPExec(method string, u template, headers http.Header, secret []string, dial egress.DialFunc) *httpExec {
	transport := &http.Transport{
		Proxy:                 nil, // never through a proxy: the host check must see the real address
		DialContext:           dial,
		MaxIdleConnsPerHost:   2,
		IdleConnTimeout:       30 * time.Second,
		ResponseHeaderTimeout: 0, // the call's context bounds it
	}
	h := &httpExec{method: method, url: u, headers: headers, client: &http.Client{
		Transport: transport,
		CheckRedirect: func(req *http.Request, via []*http.Request) error {
			if len(via) >= 3 {
				return errors.New("too many redirects")
			}
			// Go's client drops Authorization and Cookie on a redirect to another
			// domain, but not other headers, and keeps them for another port or
			// plain http: a secret from ${VAR} goes only to the origin it was
			// written for, even if the chain comes back to it.
			left := !sameOrigin(via[0].URL, req.URL)
			for _, r := range via[1:] {
				left = left || !sameOrigin(via[0].URL, r.URL)
			}
			if left {
				for _, h := range secret {
					req.Header.Del(h)
				}
			}
			return nil
		},
	}}
	inQuery := false
	for _, p := range u.parts {
		if p.arg == "" && strings.ContainsAny(p.text, "?#") {
			h.query = append(h.query, inQuery)
			inQuery = true
			continue
		}
		h.query = append(h.query, inQuery)
	}
	return h
}

func (h *httpExec) run(ctx context.Context, args map[string]json.RawMessage) (json.RawMessage, error) {
	target := h.url.render(args, func(i int, s string) string {
		if h.query[i] {
			return url.QueryEscape(s)
		}
		return url.PathEscape(s)
	})
	var body io.Reader
	if h.method == http.MethodPost || h.method == http.MethodPut || h.method == http.MethodPatch {
		b, err := json.Marshal(args)
		if err != nil {
			return nil, fmt.Errorf("encode request body: %w", err)
		}
		body = bytes.NewReader(b)
	}
	req, err := http.NewRequestWithContext(ctx, h.method, target, body)
	if err != nil {
		return nil, fmt.Errorf("build request: %w", err)
	}
	req.Header = h.headers.Clone()
	if body != nil && req.Header.Get("Content-Type") == "" {
		req.Header.Set("Content-Type", "application/json")
	}
	if req.Header.Get("Accept") == "" {
		req.Header.Set("Accept", "application/json, text/plain;q=0.9, */*;q=0.5")
	}
	resp, err := h.client.Do(req)
	if err != nil {
		var uerr *url.Error
		if errors.As(err, &uerr) {
			err = uerr.Err // the URL may carry arguments; the call's own message is enough
		}
		return nil, fmt.Errorf("%s %s: %w", h.method, req.URL.Redacted(), err)
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(io.LimitReader(resp.Body, maxResponse+1))
	if err != nil {
		return nil, fmt.Errorf("read response: %w", err)
	}
	if len(data) > maxResponse {
		return nil, fmt.Errorf("the response is larger than %d bytes", maxResponse)
	}
	if resp.StatusCode < 200 || resp.StatusCode > 299 {
		return nil, fmt.Errorf("the server answered %s: %s", resp.Status, firstLine(data, 200))
	}
	return result(data), nil
}

// sameOrigin reports whether a and b have the same scheme, host and port.
func sameOrigin(a, b *url.URL) bool {
	return strings.EqualFold(a.Scheme, b.Scheme) && strings.EqualFold(a.Hostname(), b.Hostname()) && portOf(a) == portOf(b)
}

func portOf(u *url.URL) string {
	if p := u.Port(); p != "" {
		return p
	}
	if strings.EqualFold(u.Scheme, "https") {
		return "443"
	}
	return "80"
}

func firstLine(b []byte, max int) string {
	s := strings.TrimSpace(toValidUTF8(b))
	if i := strings.IndexByte(s, '\n'); i >= 0 {
		s = s[:i]
	}
	if len(s) > max {
		cut := max
		for cut > 0 && !utf8.RuneStart(s[cut]) {
			cut--
		}
		s = s[:cut] + "…"
	}
	return s
}

func toValidUTF8(b []byte) string { return strings.ToValidUTF8(string(b), "\uFFFD") }

func trimSpace(b []byte) []byte { return bytes.TrimSpace(b) }
