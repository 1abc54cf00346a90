package adapters

import (
	"encoding/json"
	"math/big"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus/schema"
)

// TestFloorCeil checks floorCeil against math/big on bounds around the
// integers and far from them.
func TestFloorCeil(t *testing.T) {
	lits := []string{"0", "-0", "0.0", "1", "-1", "2.5", "-2.5", "3", "1e2", "1E+2", "1.5e1", "-1.5e1",
		"1e-5", "-1e-5", "0.999", "-0.999", "12345678901234567890", "9.99e19", "1.0000000001e3",
		"100e-2", "-100e-2", "0.000e5", "123.456e-1", "1e39", "9.9e39", "1e-999999999999"}
	for _, lit := range lits {
		lo, hi, neg, ok := floorCeil(lit)
		if !ok {
			t.Errorf("floorCeil(%s): not ok", lit)
			continue
		}
		r, _ := new(big.Rat).SetString(strings.Replace(lit, "e-999999999999", "e-999", 1))
		wantLo := new(big.Int).Div(r.Num(), r.Denom()) // Euclidean: floor for a positive denominator
		wantHi := new(big.Int).Neg(new(big.Int).Div(new(big.Int).Neg(r.Num()), r.Denom()))
		if lo.Cmp(wantLo) != 0 || hi.Cmp(wantHi) != 0 || neg != strings.HasPrefix(lit, "-") {
			t.Errorf("floorCeil(%s) = %v, %v, %v; want %v, %v", lit, lo, hi, neg, wantLo, wantHi)
		}
	}
	for _, lit := range []string{"1e41", "-1e41", "1e999999999999", "123456789012345678901234567890123456789012"} {
		if _, _, _, ok := floorCeil(lit); ok {
			t.Errorf("floorCeil(%s): ok, want beyond maxBoundDigits", lit)
		}
	}
}

// TestHugeExclusiveBound: an exclusive integer bound whose inclusive
// integer would be huge goes to the description, and costs its text.
func TestHugeExclusiveBound(t *testing.T) {
	big := "1e" + strings.Repeat("9", 6)
	s := schemaOf(t, `{"type":"integer","exclusiveMinimum":`+big+`,"exclusiveMaximum":-`+big+`}`)
	var n notes
	if got := exclusiveToInclusive(s, s.ExclusiveMinimum, s.Minimum, +1, &n, "exclusiveMinimum"); got != "" {
		t.Errorf("minimum = %.40s, want none", got)
	}
	if got := exclusiveToInclusive(s, s.ExclusiveMaximum, s.Maximum, -1, &n, "exclusiveMaximum"); got != "" {
		t.Errorf("maximum = %.40s, want none", got)
	}
	if d := n.appendTo(""); !strings.Contains(d, "exclusiveMinimum: "+big) || !strings.Contains(d, "exclusiveMaximum: -"+big) {
		t.Errorf("description = %q, want both bounds", d)
	}
	for _, tc := range []struct{ excl, incl, want string }{
		{"2.5", "", "3"}, {"2.5", "4", "4"}, {"2.5", "1", "3"}, {"2.5", big, big}, {"2.5", "-" + big, "3"},
		{"1e-999999999999", "", "1"}, {"-1e-999999999999", "", "0"},
	} {
		s := schemaOf(t, `{"type":"integer"}`)
		if got := exclusiveToInclusive(s, jsonNumber(tc.excl), jsonNumber(tc.incl), +1, &n, "exclusiveMinimum"); string(got) != tc.want {
			t.Errorf("exclusiveMinimum %s, minimum %q: got %q, want %q", tc.excl, tc.incl, got, tc.want)
		}
	}
}

func schemaOf(t *testing.T, text string) *schema.Schema {
	t.Helper()
	s, err := schema.Parse([]byte(text))
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func jsonNumber(s string) json.Number { return json.Number(s) }
