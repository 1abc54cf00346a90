package define_test

import (
	"context"
	"errors"
	"testing"

	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/schema"
)

// shape would add anyOf to its schema through swaggest's AnyOfExposer.
type shape struct{ Kind string }

func (shape) JSONSchemaAnyOf() []any { return []any{struct{ R float64 }{}, struct{ W, H float64 }{}} }

// TestDefineToolRefusesComposition: a swaggest composition exposer in the
// input or the output type is a define-time error, not a schema the
// decoder would not enforce.
func TestDefineToolRefusesComposition(t *testing.T) {
	type in struct {
		Shapes []shape `json:"shapes"`
	}
	type out struct {
		Shape shape `json:"shape"`
	}
	_, err := define.DefineTool(func(context.Context, in) (string, error) { return "", nil }, define.WithName("draw"))
	var te *schema.TypeError
	if !errors.Is(err, schema.ErrUnsupportedType) || !errors.As(err, &te) || te.Path != "Shapes[]" {
		t.Errorf("DefineTool(input with AnyOfExposer) error = %v, want ErrUnsupportedType at Shapes[]", err)
	}
	type plain struct {
		N int `json:"n"`
	}
	_, err = define.DefineTool(func(context.Context, plain) (out, error) { return out{}, nil }, define.WithName("draw"))
	if !errors.Is(err, schema.ErrUnsupportedType) || !errors.As(err, &te) || te.Path != "Shape" {
		t.Errorf("DefineTool(output with AnyOfExposer) error = %v, want ErrUnsupportedType at Shape", err)
	}
}
