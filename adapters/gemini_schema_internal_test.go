package adapters

import (
	"bytes"
	"encoding/json"
	"math/rand/v2"
	"strconv"
	"testing"
)

// plainGemini is geminiSchema as encoding/json writes it without a
// MarshalJSON of its own (the properties, a list, as an object in order):
// what appendJSON must write, byte for byte.
type plainGemini struct {
	Type             string          `json:"type,omitempty"`
	Format           string          `json:"format,omitempty"`
	Description      string          `json:"description,omitempty"`
	Nullable         bool            `json:"nullable,omitempty"`
	Enum             []string        `json:"enum,omitempty"`
	Pattern          string          `json:"pattern,omitempty"`
	MinLength        *int64          `json:"minLength,omitempty"`
	MaxLength        *int64          `json:"maxLength,omitempty"`
	Minimum          json.Number     `json:"minimum,omitempty"`
	Maximum          json.Number     `json:"maximum,omitempty"`
	Items            *plainGemini    `json:"items,omitempty"`
	MinItems         *int64          `json:"minItems,omitempty"`
	MaxItems         *int64          `json:"maxItems,omitempty"`
	Properties       plainProps      `json:"properties,omitempty"`
	PropertyOrdering []string        `json:"propertyOrdering,omitempty"`
	Required         []string        `json:"required,omitempty"`
	MinProperties    *int64          `json:"minProperties,omitempty"`
	MaxProperties    *int64          `json:"maxProperties,omitempty"`
	AnyOf            []*plainGemini  `json:"anyOf,omitempty"`
	Default          json.RawMessage `json:"default,omitempty"`
	Example          json.RawMessage `json:"example,omitempty"`
}

type plainProps []struct {
	name string
	s    *plainGemini
}

func (ps plainProps) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for i, p := range ps {
		if i > 0 {
			b.WriteByte(',')
		}
		k, _ := marshalNoEscape(p.name)
		b.Write(k)
		b.WriteByte(':')
		v, err := marshalNoEscape(p.s)
		if err != nil {
			return nil, err
		}
		b.Write(v)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

var geminiTestStrings = []string{"", "a", "x<y>&z", "q\"uote\\", "tab\tnl\n\b\f\x01", "é😀", "\u2028\u2029", "bad\xffutf8"}

func randomGemini(r *rand.Rand, depth int) (*geminiSchema, *plainGemini) {
	str := func() string { return geminiTestStrings[r.IntN(len(geminiTestStrings))] }
	strs := func() []string {
		var out []string
		for range r.IntN(3) {
			out = append(out, str())
		}
		return out
	}
	num := func() *int64 {
		if r.IntN(2) == 0 {
			return nil
		}
		v := r.Int64N(1000) - 500
		return &v
	}
	number := func() json.Number {
		return []json.Number{"", "1", "-2.5e10", "12345678901234567890123456789012345678"}[r.IntN(4)]
	}
	raw := func() json.RawMessage {
		return []json.RawMessage{nil, json.RawMessage(`"d<>"`), json.RawMessage(`{"a":[1,2]}`)}[r.IntN(3)]
	}
	g := &geminiSchema{Type: str(), Format: str(), Description: str(), Nullable: r.IntN(2) == 0, Enum: strs(), Pattern: str(),
		MinLength: num(), MaxLength: num(), Minimum: number(), Maximum: number(), MinItems: num(), MaxItems: num(),
		PropertyOrdering: strs(), Required: strs(), MinProperties: num(), MaxProperties: num(), Default: raw(), Example: raw()}
	p := &plainGemini{Type: g.Type, Format: g.Format, Description: g.Description, Nullable: g.Nullable, Enum: g.Enum, Pattern: g.Pattern,
		MinLength: g.MinLength, MaxLength: g.MaxLength, Minimum: g.Minimum, Maximum: g.Maximum, MinItems: g.MinItems, MaxItems: g.MaxItems,
		PropertyOrdering: g.PropertyOrdering, Required: g.Required, MinProperties: g.MinProperties, MaxProperties: g.MaxProperties, Default: g.Default, Example: g.Example}
	if depth > 0 {
		if r.IntN(2) == 0 {
			g.Items, p.Items = randomGemini(r, depth-1)
		}
		for i := range r.IntN(3) {
			gk, pk := randomGemini(r, depth-1)
			name := str() + strconv.Itoa(i)
			g.Properties = append(g.Properties, geminiProp{name, gk})
			p.Properties = append(p.Properties, struct {
				name string
				s    *plainGemini
			}{name, pk})
		}
		for range r.IntN(2) {
			gk, pk := randomGemini(r, depth-1)
			g.AnyOf, p.AnyOf = append(g.AnyOf, gk), append(p.AnyOf, pk)
		}
	}
	return g, p
}

// TestGeminiSchemaJSON: appendJSON writes every node as encoding/json
// wrote it before (without HTML escaping), in one pass.
func TestGeminiSchemaJSON(t *testing.T) {
	for seed := range 300 {
		r := rand.New(rand.NewPCG(uint64(seed), 3))
		g, p := randomGemini(r, 3)
		want, err := marshalNoEscape(p)
		if err != nil {
			t.Fatal(err)
		}
		got, err := g.appendJSON(nil)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(got, want) {
			t.Fatalf("seed %d:\n got %s\nwant %s", seed, got, want)
		}
	}
	if _, err := (&geminiSchema{Minimum: "1x"}).appendJSON(nil); err == nil {
		t.Error("an invalid number was written")
	}
}
