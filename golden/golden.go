package golden

import (
	"bytes"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"
)

// EnvUpdate is the environment variable that, set to 1 (or any true value
// strconv.ParseBool accepts), makes [JSON] rewrite golden files instead of
// comparing them.
const EnvUpdate = "TOOLNEXUS_UPDATE_GOLDEN"

// Updating reports whether golden files are being rewritten: [EnvUpdate]
// is set, or the test package defines an -update flag and it is true.
func Updating() bool {
	if v, err := strconv.ParseBool(os.Getenv(EnvUpdate)); err == nil && v {
		return true
	}
	return flagOn(flag.CommandLine, updateFlag)
}

// Marshal renders value the way golden files hold it: json.Marshal's key
// order (so a type's MarshalJSON decides it), no HTML escaping, indented
// with two spaces, and a trailing newline.
func Marshal(value any) ([]byte, error) {
	var compact bytes.Buffer
	enc := json.NewEncoder(&compact)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(value); err != nil {
		return nil, err
	}
	var out bytes.Buffer
	if err := json.Indent(&out, bytes.TrimSpace(compact.Bytes()), "", "  "); err != nil {
		return nil, err
	}
	out.WriteByte('\n')
	return out.Bytes(), nil
}

// JSON checks that value, rendered by [Marshal], equals the golden file at
// path byte for byte. When they differ as JSON values the failure lists the
// changed JSON paths, each named by its tool (the outermost object on the
// path with a string "name" member) and the path inside it, then a unified
// diff (-want +got) of the indented JSON with a few lines of context around
// each change, cut to a few dozen lines; when only order or formatting
// differ it says so and shows the first differing line of each. A missing file fails with a hint to run the
// test with [EnvUpdate] set (or -update). While updating ([Updating]), JSON writes the file
// (creating its directory) instead of comparing, and logs that it did.
//
// JSON marks itself as a test helper and reports through t.Errorf (t.Fatalf
// only when value cannot be marshalled or the file cannot be read or
// written), so a test can check several goldens in a row.
func JSON(t TB, path string, value any) {
	t.Helper()
	got, err := Marshal(value)
	if err != nil {
		t.Fatalf("golden: marshal value for %s: %v", path, err)
		return
	}
	if Updating() {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatalf("golden: %v", err)
			return
		}
		old, err := os.ReadFile(path)
		if err == nil && bytes.Equal(old, got) {
			return
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatalf("golden: %v", err)
			return
		}
		t.Logf("golden: wrote %s", path)
		return
	}
	want, err := os.ReadFile(path)
	if errors.Is(err, fs.ErrNotExist) {
		t.Errorf("golden: %s does not exist; run the test with %s=1 (or -update, where its package defines the flag) to create it", path, EnvUpdate)
		return
	}
	if err != nil {
		t.Fatalf("golden: %v", err)
		return
	}
	if bytes.Equal(want, got) {
		return
	}
	var wantV, gotV any
	if err := unmarshal(want, &wantV); err != nil {
		t.Errorf("golden: %s is not valid JSON (%v); run the test with %s=1 (or -update) to rewrite it", path, err, EnvUpdate)
		return
	}
	if err := unmarshal(got, &gotV); err != nil {
		t.Fatalf("golden: rendered value is not valid JSON: %v", err)
		return
	}
	if list, total := changes(wantV, gotV, maxPaths); total > 0 {
		var b strings.Builder
		fmt.Fprintf(&b, "golden: %s mismatch: %d changed JSON %s\n", path, total, plural(total, "path"))
		for _, c := range list {
			fmt.Fprintf(&b, "  %s\n", c)
		}
		if total > len(list) {
			fmt.Fprintf(&b, "  ... and %d more\n", total-len(list))
		}
		// The golden file as json.Indent writes it, so that formatting
		// drift in the file does not show up as changed lines.
		var wantIndented bytes.Buffer
		if err := json.Indent(&wantIndented, bytes.TrimSpace(want), "", "  "); err != nil {
			wantIndented.Reset()
			wantIndented.Write(want)
		}
		b.WriteString(unified(splitLines(wantIndented.Bytes()), splitLines(got), path, maxDiffLines))
		fmt.Fprintf(&b, "run the test with %s=1 (or -update, where its package defines the flag) to accept the new value", EnvUpdate)
		t.Errorf("%s", b.String())
		return
	}
	t.Errorf("golden: %s holds the same JSON value but different bytes (key order, formatting or escaping)\n%srun the test with %s=1 (or -update) to accept the new bytes",
		path, firstLineDiff(want, got), EnvUpdate)
}

func splitLines(b []byte) []string {
	return strings.Split(strings.TrimRight(string(b), "\n"), "\n")
}

func plural(n int, word string) string {
	if n == 1 {
		return word
	}
	return word + "s"
}

func unmarshal(data []byte, v *any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// TB is the subset of testing.TB that [JSON] uses; *testing.T and
// *testing.B satisfy it.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Fatalf(format string, args ...any)
	Logf(format string, args ...any)
}
