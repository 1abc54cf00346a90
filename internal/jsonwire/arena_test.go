package jsonwire

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"
)

// TestTexts reads strings into one arena, past several chunks and with
// some too long to share one, and checks that each reads as Text reads it
// and that none changed when the later ones were made.
func TestTexts(t *testing.T) {
	for _, arena := range []*Texts{nil, new(Texts)} {
		arena.Size(100)
		var raws [][]byte
		var got []string
		for i := range 400 {
			s := "id_" + strconv.Itoa(i) + ` "quoted" \ é ` + strings.Repeat("x", i%7)
			if i%50 == 0 {
				s += strings.Repeat("long", chunkMax/8) // alone
			}
			raw, _ := json.Marshal(s)
			raws = append(raws, raw)
			text, ok := arena.Text(raw)
			if !ok || text != s {
				t.Fatalf("Text(%s) = %q, %v; want %q", raw, text, ok, s)
			}
			got = append(got, text)
		}
		for i, raw := range raws {
			if want, _ := Text(raw); got[i] != want {
				t.Errorf("string %d changed: %q, want %q", i, got[i], want)
			}
		}
		for _, raw := range []string{`""`, `7`, `null`, ``} {
			s, b, ok := arena.TextBytes([]byte(raw))
			if s != "" || b != nil || ok != (raw == `""`) {
				t.Errorf("TextBytes(%s) = %q, %q, %v", raw, s, b, ok)
			}
		}
	}
}

// TestTextBytes: the bytes are the string's.
func TestTextBytes(t *testing.T) {
	var arena Texts
	s, b, ok := arena.TextBytes([]byte(`"{\"a\":1}"`))
	if !ok || s != `{"a":1}` || string(b) != s || cap(b) != len(b) {
		t.Errorf("TextBytes = %q, %q (cap %d), %v", s, b, cap(b), ok)
	}
}

// TestBlocks cuts slices from one arena and checks that each holds what
// was written to it, with its capacity at its end, so that appending to
// one (even past the room asked for) leaves the others as they were.
func TestBlocks(t *testing.T) {
	for _, arena := range []*Blocks{nil, new(Blocks)} {
		var got [][]byte
		var want []string
		for i := range 300 {
			s := strings.Repeat(strconv.Itoa(i%10), 1+i%37)
			if i%40 == 0 {
				s += strings.Repeat("z", chunkMax/2) // alone
			}
			n := len(s)
			if i%3 == 0 {
				n /= 2 // more written than asked for
			}
			dst := arena.Room(n)
			if len(dst) != 0 || cap(dst) < n {
				t.Fatalf("Room(%d): len %d, cap %d", n, len(dst), cap(dst))
			}
			b := arena.Take(append(dst, s...))
			if cap(b) != len(b) {
				t.Fatalf("slice %d: cap %d, len %d", i, cap(b), len(b))
			}
			got, want = append(got, b), append(want, s)
		}
		for i := range got {
			_ = append(got[i], "overwrite?"...)
		}
		for i := range got {
			if string(got[i]) != want[i] {
				t.Errorf("slice %d changed: %q, want %q", i, got[i], want[i])
			}
		}
		if b := arena.Take(arena.Room(0)); len(b) != 0 {
			t.Errorf("empty Take = %q", b)
		}
	}
}

// TestExtraIn: made in an arena, the extra members are those Extra finds.
func TestExtraIn(t *testing.T) {
	data := []byte(`{"known": 1, "a" : [1, 2, {"b": "c d"}], "drop": 2, "n": null, "m": null, "z":{}}`)
	var ix Index
	var c Checker
	if err := c.Check(data, MaxDepth, &ix); err != nil {
		t.Fatal(err)
	}
	var arena Blocks
	known, dropped, droppedNull := []string{"known"}, []string{"drop"}, []string{"n"}
	want := `{"a":[1,2,{"b":"c d"}],"m":null,"z":{}}`
	for range 2 {
		if got := ix.ExtraIn(&arena, data, known, dropped, droppedNull); string(got) != want || cap(got) != len(got) {
			t.Errorf("ExtraIn = %s (cap %d), want %s", got, cap(got), want)
		}
	}
	if got := ix.Extra(data, known, dropped, droppedNull); string(got) != want {
		t.Errorf("Extra = %s, want %s", got, want)
	}
	var many, wantMany strings.Builder
	many.WriteString(`{"known":1`)
	wantMany.WriteString(`{`)
	for i := range 12 { // more than ExtraIn keeps from its first pass
		fmt.Fprintf(&many, `, "k%d" : [ %d ]`, i, i)
		if i > 0 {
			wantMany.WriteByte(',')
		}
		fmt.Fprintf(&wantMany, `"k%d":[%d]`, i, i)
	}
	many.WriteString(`}`)
	wantMany.WriteString(`}`)
	if err := c.Check([]byte(many.String()), MaxDepth, &ix); err != nil {
		t.Fatal(err)
	}
	if got := ix.ExtraIn(&arena, []byte(many.String()), known, nil, nil); string(got) != wantMany.String() {
		t.Errorf("ExtraIn of 12 = %s, want %s", got, wantMany.String())
	}
	if got := ix.ExtraIn(&arena, []byte(`{"known":1}`), known, nil, nil); got != nil {
		t.Errorf("ExtraIn of no extra members = %s, want nil", got)
	}
}
