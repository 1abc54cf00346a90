package tnmcp_test

import (
	"slices"
	"testing"

	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

// TestMapNamesIsDefines: a remote server's tools are named by the one
// implementation define.NewTool's WithSanitizedName uses.
func TestMapNamesIsDefines(t *testing.T) {
	list := []string{"get weather", "a b", "a.b", "a_b", "überprüfen", "9lives", "ok"}
	if got, want := tnmcp.MapNames("x_", list), define.SanitizeNames("x_", list); !slices.Equal(got, want) {
		t.Errorf("MapNames = %q\nSanitizeNames = %q", got, want)
	}
	for _, n := range []string{"get weather", "überprüfen", "9lives"} {
		if got, want := tnmcp.MapNames("", []string{n})[0], define.SanitizeName(n); got != want {
			t.Errorf("MapNames(%q) = %q, SanitizeName = %q", n, got, want)
		}
	}
}
