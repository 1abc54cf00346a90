package define

import (
	"encoding/json"
	"fmt"

	"github.com/toolnexus/toolnexus/internal/jsonwire"
	"github.com/toolnexus/toolnexus/schema"
)

// WithExamples sets example arguments of the tool: the "examples" of its
// input schema's root, which adapters.ToAnthropic sends as the tool's
// input_examples (the other providers see them as the schema keyword).
// Each example is marshalled to JSON and must be arguments the tool
// accepts: [DefineTool] decodes and validates each through the tool's own
// decoder, and [NewTool] checks that each is a JSON object, so that an
// example the tool would refuse is an error when the tool is made, not a
// lesson the model learns. They replace examples the schema's root
// already has.
func WithExamples(examples ...any) Option {
	vals := append([]any(nil), examples...)
	return optionFunc{func(c *config) { c.examples, c.examplesSet = vals, true }, fmt.Sprintf("WithExamples(%d examples)", len(vals))}
}

// applyExamples checks the tool's root examples (WithExamples' ones, or
// else a hand-written schema's own) with check, the tool's decoder, and
// gives the tool an input schema of its own that carries them. A
// DefineTool type's own root examples are not checked (its schema is
// built lazily, and no tag can set them).
func applyExamples(s *state, cfg config, check func(args []byte) error) error {
	var given []any
	switch {
	case cfg.examplesSet:
		given = cfg.examples
	case s.input != nil:
		given = s.input.Examples
	}
	if len(given) == 0 && !cfg.examplesSet {
		return nil
	}
	vals := make([]any, len(given))
	for i, e := range given {
		data, err := marshalExample(e)
		if err != nil {
			return fmt.Errorf("input schema: examples[%d]: not JSON: %w", i, err)
		}
		if len(data) == 0 || data[0] != '{' {
			return fmt.Errorf("input schema: examples[%d]: arguments are a JSON object, got %s: %w", i, data, schema.ErrNotObject)
		}
		if err := check(data); err != nil {
			return fmt.Errorf("input schema: examples[%d] would be refused as arguments: %w", i, err)
		}
		vals[i] = json.RawMessage(data)
	}
	if !cfg.examplesSet {
		return nil // the hand-written schema keeps its own examples as written
	}
	root := *s.inputSchema() // shared: copy the root only
	root.Examples = vals
	if len(vals) == 0 {
		root.Examples = nil
	}
	data, err := root.MarshalJSON()
	if err != nil {
		return fmt.Errorf("input schema: %w", err)
	}
	s.input, s.inputJSON = &root, encodedJSON(data)
	return nil
}

// marshalExample is json.Marshal without HTML escaping: the example is
// shown to the model as written.
func marshalExample(v any) ([]byte, error) { return jsonwire.MarshalNoEscape(v) }

// checkTyped is DefineTool's check for applyExamples: the tool's decode
// plan, as a call's arguments meet it.
func checkTyped[In, Out any](h *typedHandler[In, Out]) func([]byte) error {
	return func(args []byte) error {
		vp, _, err := decode(h, jsonArgs(args))
		if vp != nil {
			h.release(vp)
		}
		return err
	}
}
