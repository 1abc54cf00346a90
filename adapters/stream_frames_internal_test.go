package adapters

import (
	"errors"
	"strings"
	"testing"
)

// frames cuts body with f, written in pieces of size step, and returns
// the events' data, or the error.
func frames(f framer, body string, step int) ([]string, error) {
	var out []string
	emit := func(name string, data []byte) error {
		out = append(out, name+"|"+string(data))
		return nil
	}
	for i := 0; i < len(body); i += step {
		if err := f.write([]byte(body[i:min(i+step, len(body))]), emit); err != nil {
			return out, err
		}
	}
	return out, f.end(emit)
}

func TestValueFramer(t *testing.T) {
	cases := []struct {
		body string
		want []string
		err  error
	}{
		{"[{\"a\":1},\n {\"b\":\"]}\\\"\"}\n]\n", []string{`|{"a":1}`, `|{"b":"]}\""}`}, nil},
		{"{\"a\":[1,{\"x\":\"\\\\\"}]}\n{\"b\":2}\n\n", []string{`|{"a":[1,{"x":"\\"}]}`, `|{"b":2}`}, nil},
		{"[]", nil, nil},
		{"  [ ]  ", nil, nil},
		{"[{\"a\":1}", []string{`|{"a":1}`}, ErrIncomplete},
		{"{\"a\":", nil, ErrIncomplete},
		{"[{\"a\":1}]x", []string{`|{"a":1}`}, ErrNotJSON},
		{"[{\"a\":1} {\"b\":1}]", []string{`|{"a":1}`}, ErrNotJSON},
		{"{\"a\":1}[", []string{`|{"a":1}`}, ErrNotJSON},
		{"7", nil, ErrNotJSON},
	}
	for _, c := range cases {
		for _, step := range []int{1, 2, 3, 7, 1000} {
			got, err := frames(newValueFramer(1<<20), c.body, step)
			if !errors.Is(err, c.err) || strings.Join(got, "\n") != strings.Join(c.want, "\n") {
				t.Errorf("%q in pieces of %d: %q, %v; want %q, %v", c.body, step, got, err, c.want, c.err)
			}
		}
	}
	if _, err := frames(newValueFramer(10), `{"a":"0123456789"}`, 3); !errors.Is(err, ErrReplyLimit) {
		t.Errorf("an object over the limit: %v", err)
	}
}

func TestSSEFramer(t *testing.T) {
	body := "\uFEFFevent: a\r\ndata: 1\r\ndata:2\r\n\r\n: comment\n\ndata: x\rdata\r\rid: 9\nretry: 5\nevent: b\ndata: y\n\ndata: tail"
	want := []string{"a|1\n2", "|x\n", "b|y", "|tail"}
	for _, step := range []int{1, 2, 5, 1000} {
		got, err := frames(newSSEFramer(1<<20), body, step)
		if err != nil || strings.Join(got, "\n--\n") != strings.Join(want, "\n--\n") {
			t.Errorf("pieces of %d: %q, %v; want %q", step, got, err, want)
		}
	}
	if _, err := frames(newSSEFramer(8), "data: 0123456789\n\n", 4); !errors.Is(err, ErrReplyLimit) {
		t.Errorf("an event over the limit: %v", err)
	}
}
