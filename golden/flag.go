package golden

import (
	"flag"
	"os"
	"strconv"
	"strings"
	"testing"
)

// updateFlag is the name of the flag golden reads; ownFlag is the name
// golden registers when the command line passes -update and no package has
// defined an -update flag by the time golden is initialized.
const (
	updateFlag = "update"
	ownFlag    = "toolnexus.golden.update"
)

func init() {
	if testing.Testing() && len(os.Args) > 1 {
		registerUpdate(flag.CommandLine, os.Args[1:])
	}
}

// registerUpdate makes -update in args acceptable to fs without defining a
// flag named update, so that a test package initialized after golden can
// still define its own -update (defining a flag twice panics).
//
// If fs already has an update flag, golden reads that one and nothing is
// registered. Otherwise, when args hold -update, --update or -update=value
// (before a "--" terminator), those arguments are renamed in place to
// -toolnexus.golden.update and that flag is registered. Its value forwards
// to the update flag if one exists when the command line is parsed (a
// package defined its own after golden's init), so both read the same
// value. Without -update in args nothing is registered at all.
func registerUpdate(fs *flag.FlagSet, args []string) {
	if fs.Lookup(updateFlag) != nil {
		return
	}
	found := false
	for i, a := range args {
		if a == "--" {
			break
		}
		name, value, hasValue := splitFlagArg(a)
		if name != updateFlag {
			continue
		}
		found = true
		args[i] = "-" + ownFlag
		if hasValue {
			args[i] += "=" + value
		}
	}
	if found && fs.Lookup(ownFlag) == nil {
		fs.Var(&updateValue{fs: fs}, ownFlag, "rewrite golden files (github.com/toolnexus/toolnexus/golden; given on the command line as -update)")
	}
}

// splitFlagArg splits a command-line argument of the form -name,
// --name, -name=value or --name=value; name is empty for anything else.
func splitFlagArg(a string) (name, value string, hasValue bool) {
	if len(a) < 2 || a[0] != '-' {
		return "", "", false
	}
	a = a[1:]
	if a[0] == '-' {
		a = a[1:]
	}
	if a == "" || a[0] == '-' || a[0] == '=' {
		return "", "", false
	}
	name, value, hasValue = strings.Cut(a, "=")
	return name, value, hasValue
}

// updateValue is the value of the flag golden registers for -update.
type updateValue struct {
	fs *flag.FlagSet
	on bool
}

// Set forwards to a package's own update flag if there is one, else
// records the value as a bool.
func (v *updateValue) Set(s string) error {
	if f := v.fs.Lookup(updateFlag); f != nil {
		return f.Value.Set(s)
	}
	b, err := strconv.ParseBool(s)
	if err != nil {
		return err
	}
	v.on = b
	return nil
}

func (v *updateValue) String() string {
	if v == nil {
		return "false"
	}
	return strconv.FormatBool(v.on)
}

func (v *updateValue) Get() any { return v.on }

// IsBoolFlag lets -update stand alone, without =true.
func (v *updateValue) IsBoolFlag() bool { return true }

// flagOn reports whether fs's flag called name is set to a true value.
func flagOn(fs *flag.FlagSet, name string) bool {
	f := fs.Lookup(name)
	if f == nil {
		return false
	}
	if g, ok := f.Value.(flag.Getter); ok {
		if b, ok := g.Get().(bool); ok {
			return b
		}
	}
	v, err := strconv.ParseBool(f.Value.String())
	return err == nil && v
}
