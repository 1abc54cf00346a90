package reflectx

import (
	"reflect"
	"testing"
	"time"
	"unsafe"

	"github.com/toolnexus/toolnexus/internal/formats"
)

var dateTimeSeeds = []string{
	"2026-03-14T09:30:00Z", "2024-02-29T23:59:59Z", "2023-02-29T00:00:00Z", "1900-02-29T00:00:00Z",
	"2000-02-29T00:00:00Z", "0000-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "2026-04-31T00:00:00Z",
	"2026-13-01T00:00:00Z", "2026-00-10T00:00:00Z", "2026-01-00T00:00:00Z", "2026-01-01T24:00:00Z",
	"2026-01-01T00:60:00Z", "2026-01-01T23:59:60Z", "2026-01-01t00:00:00Z", "2026-01-01T00:00:00z",
	"2026-01-01T00:00:00.5Z", "2026-01-01T00:00:00+02:00", "2026-01-01 00:00:00Z", "2026-1-01T00:00:00Z",
	"2026-01-01T00:00:0aZ", "2026-01-01T00:00:00", "",
}

// The fast path agrees with the general parser on every input: same time
// (location included) or an error from both.
func TestParseDateTimeAgrees(t *testing.T) {
	for _, s := range dateTimeSeeds {
		checkDateTimeAgrees(t, []byte(s))
	}
}

func FuzzParseDateTime(f *testing.F) {
	for _, s := range dateTimeSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, b []byte) { checkDateTimeAgrees(t, b) })
}

func checkDateTimeAgrees(t *testing.T, b []byte) {
	t.Helper()
	want, werr := formats.ParseDateTimeBytes(b)
	got, gerr := parseDateTime(b)
	// Fixed zones are made per parse: compare instants and zones.
	gn, goff := got.Zone()
	wn, woff := want.Zone()
	if (werr == nil) != (gerr == nil) || !got.Equal(want) || gn != wn || goff != woff || (want.Location() == time.UTC) != (got.Location() == time.UTC) {
		t.Errorf("parseDateTime(%q) = %v, %v; formats.ParseDateTimeBytes: %v, %v", b, got, gerr, want, werr)
	}
}

// The fast path's day count agrees with time.Date on every day of years 0
// to 9999, and its result is the same Time value (not only the same
// instant), at the first and last second of each day.
func TestDaysFromCivil(t *testing.T) {
	day := time.Date(0, 1, 1, 0, 0, 0, 0, time.UTC)
	end := time.Date(10000, 1, 1, 0, 0, 0, 0, time.UTC)
	for ; day.Before(end); day = day.AddDate(0, 0, 1) {
		y, m, d := day.Date()
		if got, want := daysFromCivil(y, int(m), d), int(day.Unix()/86400); got != want { // midnight: an exact multiple
			t.Fatalf("daysFromCivil(%d, %d, %d) = %d, want %d", y, m, d, got, want)
		}
		if d == 1 || d == 28 || d == 29 || d == 31 { // a sample of days through parseDateTime
			for _, s := range []time.Time{day, day.Add(24*time.Hour - time.Second)} {
				got, err := parseDateTime([]byte(s.Format("2006-01-02T15:04:05Z")))
				if err != nil || got != s {
					t.Fatalf("parseDateTime(%s) = %#v, %v; want %#v", s.Format(time.RFC3339), got, err, s)
				}
			}
		}
	}
}

// A time.Time field decodes every seed as parseDateTime parses it, whether
// the decoder reads the text in place (the common form) or as a string
// first (escapes, other forms, constraints).
func TestDateTimeField(t *testing.T) {
	type args struct {
		T time.Time  `json:"t"`
		P *time.Time `json:"p,omitempty"`
	}
	p := mustPlan(t, reflect.TypeFor[args]())
	texts := map[string]string{`"2026-03-14T09:30:00\u005a"`: "2026-03-14T09:30:00Z", `"\u0032026-03-14T09:30:00Z"`: "2026-03-14T09:30:00Z"}
	for _, s := range dateTimeSeeds {
		texts[`"`+s+`"`] = s
	}
	for text, s := range texts {
		want, werr := parseDateTime([]byte(s))
		for _, doc := range []string{`{"t":` + text + `}`, `{"t":` + text + `,"p":` + text + `}`, `{"t":` + text} {
			var v args
			err := p.DecodeJSON(unsafe.Pointer(&v), []byte(doc))
			if doc[len(doc)-1] != '}' {
				if err == nil {
					t.Errorf("%s: no error for text cut short", doc)
				}
				continue
			}
			if (err == nil) != (werr == nil) {
				t.Errorf("%s: error %v, parseDateTime's %v", doc, err, werr)
				continue
			}
			if err == nil && (v.T != want || (v.P != nil && *v.P != want)) {
				t.Errorf("%s: got %#v, want %#v", doc, v.T, want)
			}
		}
	}
}
