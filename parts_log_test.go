package toolnexus_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/toolnexus/toolnexus"
	"github.com/toolnexus/toolnexus/define"
	"github.com/toolnexus/toolnexus/internal/mediatest"
)

// TestPartsLoggedBySize: the slog observer and an observer's event report
// a result's parts by kind, MIME type and size, never their bytes, file
// names or URLs; OutcomeOf is ok for a result of parts.
func TestPartsLoggedBySize(t *testing.T) {
	png := append(mediatest.PNG(), "PIXELSECRET"...)
	shot := define.MustDefineTool(func(context.Context, struct{}) ([]define.Part, error) {
		return []define.Part{define.ImagePart("", png), define.FilePart("application/pdf", "passport-ann.pdf", mediatest.PDF()),
			define.ImageURLPart("https://x.test/a.png?token=SECRETTOKEN")}, nil
	}, define.WithName("screenshot"))
	var buf bytes.Buffer
	var seen []toolnexus.Event
	tk, err := toolnexus.NewToolkitWith([]define.Tool{shot},
		toolnexus.WithObserver(toolnexus.SlogObserver(slog.New(slog.NewJSONHandler(&buf, nil))),
			func(_ context.Context, e toolnexus.Event) { seen = append(seen, e) }))
	if err != nil {
		t.Fatal(err)
	}
	r := tk.ExecuteJSON(context.Background(), "screenshot", nil)
	if toolnexus.OutcomeOf(r) != toolnexus.OutcomeOK || len(r.Parts) != 3 {
		t.Fatalf("result = %v", r)
	}
	recs := slogRecords(t, &buf)
	want := "image (image/png, 95 bytes), file (application/pdf, 309 bytes), image (image/png, by URL)"
	if len(recs) != 1 || recs[0]["parts"] != want {
		t.Errorf("logged parts = %v, want %q", recs[0]["parts"], want)
	}
	for _, secret := range []string{"PIXELSECRET", "passport", "SECRETTOKEN", "iVBOR"} {
		if strings.Contains(buf.String(), secret) {
			t.Errorf("the log holds %s: %s", secret, buf.String())
		}
	}
	if len(seen) != 1 || len(seen[0].Result.Parts) != 3 || seen[0].Outcome != toolnexus.OutcomeOK {
		t.Errorf("observer saw %+v", seen)
	}
}
