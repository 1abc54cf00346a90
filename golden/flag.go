package golden

import (
	"flag"
	"strconv"
)

// updateFlag is the name of the flag golden reads when a test package
// defines it. golden defines no flag and touches no command line: a
// package may define -update, as many test packages do, without a "flag
// redefined" panic, and golden follows its value.
const updateFlag = "update"

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
