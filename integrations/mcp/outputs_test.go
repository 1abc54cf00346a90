package tnmcp_test

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	tnmcp "github.com/toolnexus/toolnexus/integrations/mcp"
)

type outLine struct {
	SKU   string   `json:"sku"`
	Notes []string `json:"notes"`
}

type outOrder struct {
	ID      string            `json:"id"`
	Placed  time.Time         `json:"placed"`
	Lines   []outLine         `json:"lines"`
	Attrs   map[string]string `json:"attrs"`
	Gift    *outLine          `json:"gift"`
	Comment *string           `json:"comment"`
}

// outSearch has every shape the issue names: nil slices and maps, a zero
// array of structs holding nil slices, nested structs, times, pointers,
// an embedded pointer (nil in the "empty" case).
type outSearch struct {
	*OutPage
	Orders  []outOrder        `json:"orders"`
	Pinned  [2]outOrder       `json:"pinned"`
	Facets  map[string][]int  `json:"facets"`
	ByID    map[int]*outOrder `json:"by_id"`
	Blob    []byte            `json:"blob"`
	Updated time.Time         `json:"updated"`
	Next    *string           `json:"next"`
	Raw     json.RawMessage   `json:"raw"`
	Extra   any               `json:"extra"`
	Score   float64           `json:"score"`
	Email   string            `json:"email" format:"email"`
	Note    string            `json:"note,omitempty"`
}

// OutPage is embedded by pointer: nil, its fields are the zero struct's
// (the schema requires them).
type OutPage struct {
	Page  int      `json:"page"`
	Links []string `json:"links"`
}

type outQuery struct {
	Case string `json:"case"`
}

func fullSearch() outSearch {
	c, next := "ring twice", "page-2"
	placed := time.Date(2026, 3, 14, 9, 30, 0, 5, time.FixedZone("CET", 3600))
	o := outOrder{ID: "o1", Placed: placed, Lines: []outLine{{SKU: "a", Notes: []string{"x"}}, {SKU: "b"}},
		Attrs: map[string]string{"k": "v"}, Gift: &outLine{SKU: "g"}, Comment: &c}
	return outSearch{
		Orders: []outOrder{o, {ID: "o2"}}, Pinned: [2]outOrder{o}, Facets: map[string][]int{"size": {1, 2}, "none": nil},
		ByID: map[int]*outOrder{1: &o, 2: nil}, Blob: []byte("hi"), Updated: placed, Next: &next,
		Raw: json.RawMessage("{\"bad\": \"\xff\xfe\"}"), Extra: map[string]any{"list": []int(nil)},
		Score: 1e-7, Email: "a@example.com", Note: "n", OutPage: &OutPage{Page: 2},
	}
}

func search(_ context.Context, q outQuery) (outSearch, error) {
	switch q.Case {
	case "full":
		return fullSearch(), nil
	case "bad-utf8":
		return outSearch{Orders: []outOrder{{ID: "\xff"}}, Email: "a@example.com", Raw: json.RawMessage("\"\xc3\"")}, nil
	}
	return outSearch{Email: "a@example.com"}, nil // every slice and map nil, times zero
}

// TestStructuredContentMatchesOutputSchema calls tools over the SDK's
// in-memory transport and validates every structuredContent on the wire
// against the outputSchema the tool advertised, with a JSON Schema draft
// 2020-12 validator asserting formats (the TypeScript SDK's client rejects
// a call whose structured content does not match).
func TestStructuredContentMatchesOutputSchema(t *testing.T) {
	ctx := context.Background()
	tool := define.MustDefineTool(search, define.WithName("search"))
	big := define.MustDefineTool(func(context.Context, struct{}) (define.Result, error) {
		return define.Result{Output: "done", Value: outSearch{Note: strings.Repeat("x", 2<<20)}}, nil
	}, define.WithName("big"))
	tk, err := toolnexus.NewToolkit(tool, big)
	if err != nil {
		t.Fatal(err)
	}
	server := mcp.NewServer(&mcp.Implementation{Name: "outputs", Version: "v1.0.0"}, nil)
	if err := tnmcp.AddTools(server, tk); err != nil {
		t.Fatal(err)
	}
	cs, wire := connectInMemory(t, ctx, server)
	defer cs.Close()

	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	var validator *jsonschema.Schema
	for _, lt := range list.Tools {
		if lt.Name != "search" {
			continue
		}
		doc, err := json.Marshal(lt.OutputSchema)
		if err != nil {
			t.Fatal(err)
		}
		if validator, err = compileOutputSchema(doc); err != nil {
			t.Fatalf("outputSchema %s: %v", doc, err)
		}
	}
	if validator == nil {
		t.Fatal("search advertises no outputSchema")
	}

	for _, c := range []string{"empty", "full", "bad-utf8"} {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "search", Arguments: map[string]any{"case": c}})
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %+v", c, err, res)
		}
		raw := lastStructured(t, wire())
		if raw == nil {
			t.Fatalf("%s: no structuredContent on the wire", c)
		}
		if !utf8.Valid(raw) {
			t.Errorf("%s: structuredContent is not valid UTF-8: %q", c, raw)
		}
		v, err := jsonschema.UnmarshalJSON(bytes.NewReader(raw))
		if err != nil {
			t.Fatalf("%s: %v", c, err)
		}
		if err := validator.Validate(v); err != nil {
			t.Errorf("%s: structuredContent does not match the outputSchema: %v\n%s", c, err, raw)
		}
		// The text block is the same JSON.
		if text := res.Content[0].(*mcp.TextContent).Text; !utf8.ValidString(text) || !json.Valid([]byte(text)) {
			t.Errorf("%s: text block %q", c, text)
		}
	}

	// A Value over the output limit reaches neither the text nor
	// structuredContent.
	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "big", Arguments: map[string]any{}})
	if err != nil {
		t.Fatal(err)
	}
	if !res.IsError || res.StructuredContent != nil {
		t.Errorf("big: IsError %t, structuredContent %T, want an error result without it", res.IsError, res.StructuredContent)
	}
}

func compileOutputSchema(doc []byte) (*jsonschema.Schema, error) {
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		return nil, err
	}
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	c.AssertContent()
	if err := c.AddResource("mem:///output.json", v); err != nil {
		return nil, err
	}
	return c.Compile("mem:///output.json")
}

// lastStructured is the raw structuredContent of the last server->client
// message, as it went over the wire.
func lastStructured(t *testing.T, msgs []wireMsg) json.RawMessage {
	t.Helper()
	for i := len(msgs) - 1; i >= 0; i-- {
		if msgs[i].Dir != toClient {
			continue
		}
		var m struct {
			Result struct {
				StructuredContent json.RawMessage `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal(msgs[i].Message, &m); err != nil {
			t.Fatal(err)
		}
		return m.Result.StructuredContent
	}
	return nil
}
