package adapters

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
)

// This file holds the notes a dialect appends to a description for the
// keywords it cannot express.

// notes collects what a dialect cannot express, for the description.
type notes struct{ parts []string }

func (n *notes) add(kw string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		data = []byte(fmt.Sprint(v))
	}
	n.parts = append(n.parts, kw+": "+string(data))
}

// addRaw adds a JSON value as written, compacted.
func (n *notes) addRaw(kw string, v json.RawMessage) {
	var b bytes.Buffer
	if json.Compact(&b, v) != nil {
		b.Reset()
		b.Write(v)
	}
	n.parts = append(n.parts, kw+": "+b.String())
}

func (n *notes) addText(kw, v string) { n.parts = append(n.parts, kw+": "+v) }

func (n *notes) addInt(kw string, v *int64) {
	if v != nil {
		n.parts = append(n.parts, fmt.Sprintf("%s: %d", kw, *v))
	}
}

func (n *notes) addNum(kw string, v json.Number) {
	if v != "" {
		n.parts = append(n.parts, kw+": "+string(v))
	}
}

func (n *notes) cut(prop string, depth int) {
	n.parts = append(n.parts, fmt.Sprintf("%q omitted: recursion depth limit %d", prop, depth))
}

// appendTo appends the notes to a description: "desc (k: v; k: v)".
func (n *notes) appendTo(desc string) string {
	if len(n.parts) == 0 {
		return desc
	}
	joined := strings.Join(n.parts, "; ")
	if desc == "" {
		return joined
	}
	return desc + " (" + joined + ")"
}
