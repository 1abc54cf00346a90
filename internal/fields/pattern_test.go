package fields

import (
	"errors"
	"reflect"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"
)

// patternSeeds are patterns regexp.Compile accepts and rejects, including
// its size and nesting limits.
var patternSeeds = []string{
	`^[A-Z]{3}$`, `\d+`, `(a|b)*c`, `(?i)x`, `[[:alpha:]]`, `\pL`, `a{1000}`, `a{1001}`,
	`(?:a{500}){500}`, `((((((((((a))))))))))`, strings.Repeat("(", 1001) + strings.Repeat(")", 1001),
	`(?<=x)y`, `(`, `[z-a]`, `\8`, `x**`, `(?P<n>a)(?P<n>b)`, `\Q.*`, "\xff",
}

// checkPattern stands for regexp.Compile at definition: it must accept and
// reject the same patterns, with the same error, or a pattern accepted at
// definition could fail to compile at its first use.
func FuzzCheckPattern(f *testing.F) {
	for _, s := range patternSeeds {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, expr string) {
		_, compileErr := regexp.Compile(expr)
		_, parseErr := syntax.Parse(expr, syntax.Perl)
		if (compileErr == nil) != (parseErr == nil) {
			t.Fatalf("%q: regexp.Compile error %v, syntax.Parse error %v", expr, compileErr, parseErr)
		}
		if compileErr != nil && compileErr.Error() != parseErr.Error() {
			t.Fatalf("%q: regexp.Compile error %q, syntax.Parse error %q", expr, compileErr, parseErr)
		}
	})
}

func TestPatternTag(t *testing.T) {
	str := reflect.TypeFor[string]()
	for _, expr := range patternSeeds {
		_, compileErr := regexp.Compile(expr)
		_, err := ParseRules(str, reflect.StructTag(`pattern:`+strconv.Quote(expr)))
		if (err == nil) != (compileErr == nil) {
			t.Errorf("pattern %q: ParseRules error %v, regexp.Compile error %v", expr, err, compileErr)
		}
		if err != nil && !errors.Is(err, ErrInvalidTag) {
			t.Errorf("pattern %q: error %v is not ErrInvalidTag", expr, err)
		}
	}
	// (An enum member is checked against the pattern by the decode plan:
	// internal/reflectx's TestValueTagsCheckedByThePlan.)
	r, err := ParseRules(str, `pattern:"^[a-z]+$" enum:"abc,xyz"`)
	if err != nil {
		t.Fatal(err)
	}
	if diff := cmp.Diff("^[a-z]+$", r.Pattern); diff != "" {
		t.Errorf("Pattern (-want +got):\n%s", diff)
	}
}
