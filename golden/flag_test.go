package golden

import (
	"flag"
	"io"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// setCommandLine makes fs the command line's flag set for the test.
func setCommandLine(t *testing.T, fs *flag.FlagSet) {
	old := flag.CommandLine
	flag.CommandLine = fs
	t.Cleanup(func() { flag.CommandLine = old })
}

func TestSplitFlagArg(t *testing.T) {
	type split struct {
		Name, Value string
		HasValue    bool
	}
	for arg, want := range map[string]split{
		"-update":          {Name: "update"},
		"--update":         {Name: "update"},
		"-update=false":    {Name: "update", Value: "false", HasValue: true},
		"--update=":        {Name: "update", HasValue: true},
		"-test.run=X=Y":    {Name: "test.run", Value: "X=Y", HasValue: true},
		"update":           {},
		"-":                {},
		"--":               {},
		"---update":        {},
		"-=x":              {},
		"":                 {},
		"./...":            {},
		"-updated":         {Name: "updated"},
		"--update=1=extra": {Name: "update", Value: "1=extra", HasValue: true},
	} {
		var got split
		got.Name, got.Value, got.HasValue = splitFlagArg(arg)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("splitFlagArg(%q) (-want +got):\n%s", arg, diff)
		}
	}
}

// newFlagSet is a flag set like a test binary's, with one flag of
// testing's and one of the user's.
func newFlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("x.test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

func TestRegisterUpdateThenOwnFlag(t *testing.T) {
	// golden is initialized first and sees -update; the test package then
	// defines its own -update: no panic, and both read true.
	fs := newFlagSet()
	args := []string{"-test.v", "-update", "--", "-update"}
	registerUpdate(fs, args)
	own := fs.Bool(updateFlag, false, "the package's own flag") // panics if golden took the name
	verbose := fs.Bool("test.v", false, "")
	if err := fs.Parse(args); err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff([]string{"-test.v", "-" + ownFlag, "--", "-update"}, args); diff != "" {
		t.Errorf("args (-want +got):\n%s", diff)
	}
	if !*own || !*verbose {
		t.Errorf("own -update = %v, -test.v = %v, want both true", *own, *verbose)
	}
	if !flagOn(fs, updateFlag) {
		t.Error("flagOn(update) = false, want true")
	}
}

func TestRegisterUpdateAlone(t *testing.T) {
	for _, c := range []struct {
		args []string
		want bool
	}{
		{[]string{"-update"}, true},
		{[]string{"--update=true"}, true},
		{[]string{"-update=false"}, false},
		{[]string{"-update", "-update=0"}, false},
	} {
		fs := newFlagSet()
		args := append([]string(nil), c.args...)
		registerUpdate(fs, args)
		if err := fs.Parse(args); err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		if got := flagOn(fs, ownFlag); got != c.want {
			t.Errorf("%q: updating = %v, want %v", c.args, got, c.want)
		}
		if fs.Lookup(updateFlag) != nil {
			t.Errorf("%q: golden defined a flag named update", c.args)
		}
	}
	fs := newFlagSet()
	err := func() error {
		args := []string{"-update=maybe"}
		registerUpdate(fs, args)
		return fs.Parse(args)
	}()
	if err == nil {
		t.Error("-update=maybe parsed, want an error")
	}
}

func TestRegisterUpdateNotOnCommandLine(t *testing.T) {
	fs := newFlagSet()
	args := []string{"-test.v"}
	registerUpdate(fs, args)
	if fs.Lookup(ownFlag) != nil {
		t.Error("registered a flag though the command line has no -update")
	}
	fs.Bool(updateFlag, false, "") // must not panic
}

func TestRegisterUpdateFlagDefinedFirst(t *testing.T) {
	fs := newFlagSet()
	own := fs.Bool(updateFlag, false, "")
	args := []string{"-update"}
	registerUpdate(fs, args)
	if args[0] != "-update" || fs.Lookup(ownFlag) != nil {
		t.Errorf("args = %q, own flag registered = %v; want both untouched", args, fs.Lookup(ownFlag) != nil)
	}
	if err := fs.Parse(args); err != nil || !*own {
		t.Errorf("parse: err = %v, -update = %v; want nil, true", err, *own)
	}
}

// TestOwnUpdateFlagBinary runs a real test binary whose package defines its
// own -update flag and imports golden, with and without -update.
func TestOwnUpdateFlagBinary(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a test binary")
	}
	goTool, err := exec.LookPath("go")
	if err != nil {
		t.Skipf("no go command on PATH: %v", err)
	}
	for _, args := range [][]string{
		{"test", "-count=1", "./testdata/ownflag", "-update"},
		{"test", "-count=1", "./testdata/ownflag", "-args", "-want=false"},
	} {
		cmd := exec.Command(goTool, args...)
		cmd.Env = append(os.Environ(), EnvUpdate+"=")
		out, err := cmd.CombinedOutput()
		if err != nil || strings.Contains(string(out), "panic") {
			t.Errorf("go %s: %v\n%s", strings.Join(args, " "), err, out)
		}
	}
}
