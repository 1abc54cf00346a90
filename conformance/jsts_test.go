package conformance

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/internal/reflectx"
	"github.com/toolnexus/toolnexus/schema"
)

// jstsDir is a folder of JSON-Schema-Test-Suite files (tests/draft2020-12
// of https://github.com/json-schema-org/JSON-Schema-Test-Suite, or a part
// of it): the suite is not in this repository.
var jstsDir = flag.String("jsts", "", "folder of JSON-Schema-Test-Suite draft 2020-12 files for TestJSTS (searched recursively)")

// jstsGroup is one schema of a suite file and its tests.
type jstsGroup struct {
	Description string          `json:"description"`
	Schema      json.RawMessage `json:"schema"`
	Tests       []struct {
		Description string          `json:"description"`
		Data        json.RawMessage `json:"data"`
		Valid       bool            `json:"valid"`
	} `json:"tests"`
}

// jstsDeliberate are the suite's tests on which the validator of schema
// tools answers otherwise on purpose: a file, a group description and a
// test description ("" for every group or test), with the decisions.md
// rule that says why. They are typed tools' rules as well: formats and
// patterns are checked by the same code.
var jstsDeliberate = []struct{ file, group, test, why string }{
	{"optional/format/date-time.json", "validation of date-time strings", "a valid date-time with a leap second, UTC",
		"decisions.md: the leap second is rejected in date-time"},
	{"optional/format/date-time.json", "validation of date-time strings", "a valid date-time with a leap second, with minus offset",
		"decisions.md: the leap second is rejected in date-time"},
	{"optional/format/hostname.json", "validation of host names", "trailing dot",
		"decisions.md: format hostname accepts one trailing dot"},
	{"optional/format/hostname.json", "validation of A-label (punycode) host names", "",
		"decisions.md: format hostname checks an xn-- label as an ordinary label (no IDNA)"},
	{"optional/format/uri.json", "validation of URIs", "unescaped non US-ASCII characters", "decisions.md: format uri is net/url's"},
	{"optional/format/uri.json", "validation of URIs", "invalid backslash character", "decisions.md: format uri is net/url's"},
	{"optional/format/uri.json", "validation of URIs", `invalid " character`, "decisions.md: format uri is net/url's"},
	{"optional/format/uri.json", "validation of URIs", "invalid <> characters", "decisions.md: format uri is net/url's"},
	{"optional/format/uri.json", "validation of URIs", "invalid {} characters", "decisions.md: format uri is net/url's"},
	{"optional/format/uri.json", "validation of URIs", "invalid ^ character", "decisions.md: format uri is net/url's"},
	{"optional/format/uri.json", "validation of URIs", "invalid ` character", "decisions.md: format uri is net/url's"},
	{"optional/format/uri.json", "validation of URIs", "invalid | character", "decisions.md: format uri is net/url's"},
	{"optional/format/uri.json", "validation of URIs", "square brackets are not allowed in a path segment", "decisions.md: format uri is net/url's"},
	{"optional/ecmascript-regex.json", `ECMA 262 \s matches whitespace`, "", `decisions.md: pattern is RE2, whose \s is [\t\n\f\r ]`},
	{"optional/ecmascript-regex.json", `ECMA 262 \S matches everything but whitespace`, "", `decisions.md: pattern is RE2, whose \s is [\t\n\f\r ]`},
}

// jstsWhy returns the rule of jstsDeliberate for a test, or "".
func jstsWhy(file, group, test string) string {
	for _, d := range jstsDeliberate {
		if d.file == file && (d.group == "" || d.group == group) && (d.test == "" || d.test == test) {
			return d.why
		}
	}
	return ""
}

// TestJSTS runs the validator of schema tools (reflectx.CompileSchema, the
// one define.NewTool uses) over the JSON-Schema-Test-Suite files under
// -jsts: every test of a schema it compiles must get the suite's verdict,
// or one listed in jstsDeliberate; a schema with a keyword it refuses is
// counted as not run, with the keyword. It logs the counts per file.
func TestJSTS(t *testing.T) {
	if *jstsDir == "" {
		t.Skip("no -jsts folder: run `go test ./conformance -run JSTS -jsts=/path/to/JSON-Schema-Test-Suite/tests/draft2020-12` (the suite is not in this repository)")
	}
	var files []string
	err := filepath.WalkDir(*jstsDir, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") {
			files = append(files, path)
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if len(files) == 0 {
		t.Fatalf("no .json files under %s", *jstsDir)
	}
	sort.Strings(files)
	type counts struct{ pass, documented, fail, notRun int }
	var total counts
	notRunWhy, byRule := map[string]int{}, map[string]int{}
	for _, f := range files {
		rel, _ := filepath.Rel(*jstsDir, f)
		rel = filepath.ToSlash(rel)
		data, err := os.ReadFile(f)
		if err != nil {
			t.Fatal(err)
		}
		var groups []jstsGroup
		if err := json.Unmarshal(data, &groups); err != nil {
			t.Errorf("%s: %v", rel, err)
			continue
		}
		var c counts
		for _, g := range groups {
			plan, err := jstsCompile(g.Schema)
			if err != nil {
				c.notRun += len(g.Tests)
				why := err.Error()
				var ke *schema.KeywordError
				if errors.As(err, &ke) {
					why = "keyword " + ke.Keyword
				}
				notRunWhy[why] += len(g.Tests)
				t.Logf("%s: %q: not run (%d tests): %v", rel, g.Description, len(g.Tests), err)
				continue
			}
			for _, tc := range g.Tests {
				err := plan.ValidateValue(tc.Data, reflectx.Limits{})
				if (err == nil) == tc.Valid {
					c.pass++
					continue
				}
				key := rel + "|" + g.Description + "|" + tc.Description
				if why := jstsWhy(rel, g.Description, tc.Description); why != "" {
					c.documented++
					byRule[why]++
					continue
				}
				c.fail++
				t.Errorf("%s\n  schema %s\n  data %s\n  suite: valid %v; schema tool: %v", key, g.Schema, tc.Data, tc.Valid, err)
			}
		}
		t.Logf("%-40s %3d pass, %2d documented, %2d fail, %3d not run", rel, c.pass, c.documented, c.fail, c.notRun)
		total.pass, total.documented, total.fail, total.notRun = total.pass+c.pass, total.documented+c.documented, total.fail+c.fail, total.notRun+c.notRun
	}
	for _, why := range sortedKeys(byRule) {
		t.Logf("documented: %3d tests: %s", byRule[why], why)
	}
	for _, why := range sortedKeys(notRunWhy) {
		t.Logf("not run: %3d tests: %s", notRunWhy[why], why)
	}
	t.Logf("SUMMARY JSTS: %d files, %d pass, %d documented differences, %d fail, %d not run (a keyword the validator refuses)",
		len(files), total.pass, total.documented, total.fail, total.notRun)
}

// jstsCompile compiles a suite schema, which may be a boolean.
func jstsCompile(raw json.RawMessage) (*reflectx.SchemaPlan, error) {
	var s *schema.Schema
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		s = schema.True()
	case "false":
		s = schema.False()
	default:
		var err error
		if s, err = schema.Parse(raw); err != nil {
			return nil, fmt.Errorf("schema.Parse: %w", err)
		}
	}
	return reflectx.CompileSchema(s, schema.ParseLimits{})
}
