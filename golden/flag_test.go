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

// newFlagSet is a flag set like a test binary's.
func newFlagSet() *flag.FlagSet {
	fs := flag.NewFlagSet("x.test", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	return fs
}

// TestNoFlagDefined: importing golden defines no flag and leaves the
// command line as it was, so a test package may define -update itself.
func TestNoFlagDefined(t *testing.T) {
	args := append([]string(nil), os.Args...)
	n := 0
	flag.CommandLine.VisitAll(func(f *flag.Flag) {
		if !strings.HasPrefix(f.Name, "test.") {
			t.Errorf("flag -%s is defined in golden's test binary", f.Name)
		}
		n++
	})
	if n == 0 {
		t.Fatal("no flags at all: not a test binary's command line")
	}
	fs := newFlagSet()
	fs.Bool(updateFlag, false, "a package's own") // as a package would: no panic
	if diff := cmp.Diff(args, os.Args); diff != "" {
		t.Errorf("os.Args changed (-before +after):\n%s", diff)
	}
}

func TestUpdatingFollowsOwnFlag(t *testing.T) {
	t.Setenv(EnvUpdate, "")
	for _, c := range []struct {
		args []string
		want bool
	}{
		{nil, false},
		{[]string{"-update"}, true},
		{[]string{"--update=true"}, true},
		{[]string{"-update=false"}, false},
		{[]string{"-update", "-update=0"}, false},
	} {
		fs := newFlagSet()
		fs.Bool(updateFlag, false, "")
		if err := fs.Parse(c.args); err != nil {
			t.Fatalf("%q: %v", c.args, err)
		}
		setCommandLine(t, fs)
		if got := Updating(); got != c.want {
			t.Errorf("%q: Updating() = %v, want %v", c.args, got, c.want)
		}
	}
	setCommandLine(t, newFlagSet()) // no -update defined: only the environment counts
	if Updating() {
		t.Error("Updating() = true with no flag and no environment")
	}
	t.Setenv(EnvUpdate, "1")
	if !Updating() {
		t.Errorf("Updating() = false with %s=1", EnvUpdate)
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
