package fields

import (
	"reflect"
	"regexp"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// tagKeys are the keys the comparisons look up: every keyword the parser
// reads, and a few that appear only in odd tags.
var tagKeys = []string{"json", "minimum", "maximum", "pattern", "description", "enum", "default", "a", "b", "x:y", ""}

// lookups answers every key of tagKeys with parser.lookup and with
// reflect.StructTag.Lookup.
func lookups(tag string) (got, want []string) {
	p := &parser{tag: reflect.StructTag(tag)}
	p.scan()
	for _, k := range tagKeys {
		v, ok := p.lookup(k)
		got = append(got, k+"="+v+"/"+map[bool]string{true: "found", false: "absent"}[ok])
		v, ok = reflect.StructTag(tag).Lookup(k)
		want = append(want, k+"="+v+"/"+map[bool]string{true: "found", false: "absent"}[ok])
	}
	return got, want
}

func TestScanTagAnswersAsLookup(t *testing.T) {
	for _, tag := range []string{
		``,
		`json:"origin" pattern:"^[A-Z]{3}$" description:"IATA code"`,
		`  json:"a"   minimum:"1"`,
		`minimum:"1" minimum:"2"`,
		`minimum:"\x" minimum:"2"`,
		`description:"a \"quoted\" word" enum:"x,y"`,
		`description:"tab\tand \u00e9"`,
		`json:"a" broken maximum:"3"`,
		`json:"a" maximum:"3`,
		`json: "a"`,
		`:"a" json:"b"`,
		"json:\"a\nb\" minimum:\"1\"",
		`a:"1"b:"2"`,
		`x:y:"1"`,
		`default:"{\"n\":1}" json:"p"`,
		`a:"1" b:"2" c:"3" d:"4" e:"5" f:"6" g:"7" h:"8" i:"9" j:"10" k:"11" l:"12" m:"13" json:"x" b:"again"`,
	} {
		got, want := lookups(tag)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("tag %q (-want +got):\n%s", tag, diff)
		}
	}
}

func FuzzScanTag(f *testing.F) {
	f.Add(`json:"origin" pattern:"^[A-Z]{3}$"`)
	f.Add(`minimum:"\x" minimum:"2"`)
	f.Add(`a:"1"b:"2" default:"{\"n\":1}"`)
	f.Fuzz(func(t *testing.T, tag string) {
		got, want := lookups(tag)
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("tag %q (-want +got):\n%s", tag, diff)
		}
	})
}

// numberGrammar is the JSON number grammar as a regular expression, the
// reference scanNumber is checked against.
var numberGrammar = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?([0-9]+))?$`)

func checkScanNumber(t *testing.T, v string) {
	t.Helper()
	m := numberGrammar.FindStringSubmatch(v)
	want := struct {
		Exp string
		OK  bool
	}{OK: m != nil}
	if m != nil {
		want.Exp = m[4]
	}
	exp, ok := scanNumber(v)
	if diff := cmp.Diff(want, struct {
		Exp string
		OK  bool
	}{exp, ok}); diff != "" {
		t.Errorf("scanNumber(%q) (-want +got):\n%s", v, diff)
	}
}

func TestScanNumber(t *testing.T) {
	for _, v := range []string{"", "-", "0", "-0", "00", "01", "1", "12.5", "1.", ".5", "1e", "1e+", "1e5", "1E-07",
		"-0.0e+0", "1.5e400", "1.5e401", "+1", "1 ", " 1", "0x10", "1_000", "9.99E+10", "1e5.5", "--1", "0.e1"} {
		checkScanNumber(t, v)
	}
}

func FuzzScanNumber(f *testing.F) {
	for _, v := range []string{"0", "-12.5e+7", "1e", "01", "1.5E400"} {
		f.Add(v)
	}
	f.Fuzz(checkScanNumber)
}
