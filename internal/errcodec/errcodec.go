// Package errcodec keeps what define.Result's JSON needs to store the Go
// error of a result and make it again: the error types it knows (each
// with its detail as JSON), the sentinels errors.Is must still find, and
// how an error is classified. define registers its own; the root package
// adds the errors of its toolkits (denied, pending, unknown tool, ...)
// when it is initialised, so that define does not import it.
package errcodec

import (
	"encoding/json"
	"errors"
	"sync"
)

// Codec stores errors of one Go type.
type Codec struct {
	// Name identifies the type in the JSON ("arg_errors").
	Name string
	// Encode returns the detail of err, ok when err itself (not an
	// error it wraps) is of the codec's type.
	Encode func(err error) (detail any, ok bool)
	// Decode makes the error again from its message and detail.
	Decode func(message string, detail json.RawMessage) (error, error)
}

// Sentinel is an error value that errors.Is finds, with its name in the
// JSON.
type Sentinel struct {
	Name string
	Err  error
}

var (
	mu        sync.RWMutex
	codecs    []Codec
	sentinels []Sentinel
	classify  func(error) string
)

// Register adds a codec; the first one whose Encode accepts an error
// stores it.
func Register(c Codec) {
	mu.Lock()
	defer mu.Unlock()
	codecs = append(codecs, c)
}

// RegisterSentinel adds sentinels.
func RegisterSentinel(s ...Sentinel) {
	mu.Lock()
	defer mu.Unlock()
	sentinels = append(sentinels, s...)
}

// SetClassifier sets the function that names an error's kind.
func SetClassifier(f func(error) string) {
	mu.Lock()
	defer mu.Unlock()
	classify = f
}

// Kind names err's kind with the classifier; "tool_error" without one.
func Kind(err error) string {
	mu.RLock()
	f := classify
	mu.RUnlock()
	if f == nil {
		return "tool_error"
	}
	return f(err)
}

// Encode returns the codec name and detail of err; "" when no codec
// takes it.
func Encode(err error) (string, any) {
	mu.RLock()
	defer mu.RUnlock()
	for _, c := range codecs {
		if d, ok := c.Encode(err); ok {
			return c.Name, d
		}
	}
	return "", nil
}

// Decode makes an error of the codec named name; ok is false when there
// is no such codec.
func Decode(name, message string, detail json.RawMessage) (err error, ok bool, derr error) {
	mu.RLock()
	var c *Codec
	for i := range codecs {
		if codecs[i].Name == name {
			c = &codecs[i]
			break
		}
	}
	mu.RUnlock()
	if c == nil {
		return nil, false, nil
	}
	err, derr = c.Decode(message, detail)
	return err, true, derr
}

// Is returns the names of the sentinels errors.Is finds in err, in the
// order they were registered.
func Is(err error) []string {
	mu.RLock()
	defer mu.RUnlock()
	var out []string
	for _, s := range sentinels {
		if errors.Is(err, s.Err) {
			out = append(out, s.Name)
		}
	}
	return out
}

// SentinelNamed returns the sentinel named name, nil when none is.
func SentinelNamed(name string) error {
	mu.RLock()
	defer mu.RUnlock()
	for _, s := range sentinels {
		if s.Name == name {
			return s.Err
		}
	}
	return nil
}

// RegisterNew adds s unless a sentinel of its name, or its error, is
// registered already; it reports whether it added it.
func RegisterNew(s Sentinel) bool {
	mu.Lock()
	defer mu.Unlock()
	for _, o := range sentinels {
		if o.Name == s.Name || o.Err == s.Err {
			return false
		}
	}
	sentinels = append(sentinels, s)
	return true
}
