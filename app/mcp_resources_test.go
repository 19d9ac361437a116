package app

import (
	"context"
	"errors"
	"strings"
	"testing"

	"hermes/backend/mcp"
)

func TestMCPResources(t *testing.T) {
	a, core, _, _ := newTestApp(t, nil)
	if err := core.StartMCP(context.Background()); err != nil {
		t.Fatal(err)
	}
	if _, err := a.MCP.MCPAddServer("everything", everythingConfig(t)); err != nil {
		t.Fatal(err)
	}
	if _, err := a.MCP.MCPApprove("everything"); err != nil {
		t.Fatal(err)
	}
	st := waitMCP(t, a, "everything", mcp.StateReady)
	if !st.HasResources {
		t.Fatalf("server-everything offers no resources: %+v", st)
	}

	t.Run("lists the resources", func(t *testing.T) {
		list, err := a.MCP.MCPResources("everything")
		if err != nil {
			t.Fatal(err)
		}
		var doc mcp.ResourceInfo
		for _, r := range list {
			if strings.HasSuffix(r.URI, "/architecture.md") {
				doc = r
			}
		}
		if doc.URI == "" || doc.Server != "everything" || doc.Name != "architecture.md" || doc.MIMEType != "text/markdown" {
			t.Fatalf("architecture.md not listed as expected: %+v", list)
		}
	})

	t.Run("reads a text resource", func(t *testing.T) {
		list, _ := a.MCP.MCPResources("everything")
		uri := ""
		for _, r := range list {
			if strings.HasSuffix(r.URI, "/architecture.md") {
				uri = r.URI
			}
		}
		r, err := a.MCP.MCPReadResource("everything", uri)
		if err != nil {
			t.Fatal(err)
		}
		if r.URI != uri || r.Server != "everything" || r.Binary || r.MIMEType != "text/markdown" || strings.TrimSpace(r.Text) == "" {
			t.Fatalf("read = %+v", r)
		}
	})

	for _, tc := range []struct {
		name, server, uri string
	}{
		{"an unknown server", "nope", "demo://x"},
		{"an unknown resource", "everything", "demo://resource/static/document/no-such-file.md"},
	} {
		t.Run("says why it cannot read "+tc.name, func(t *testing.T) {
			_, err := a.MCP.MCPReadResource(tc.server, tc.uri)
			var ue *UserError
			if !errors.As(err, &ue) || ue.Message == "" {
				t.Fatalf("err = %v (%T), want a UserError with a message", err, err)
			}
		})
	}

	t.Run("an unknown server has no resource list", func(t *testing.T) {
		list, err := a.MCP.MCPResources("nope")
		var ue *UserError
		if !errors.As(err, &ue) || list != nil {
			t.Fatalf("list = %v, err = %v", list, err)
		}
	})
}
