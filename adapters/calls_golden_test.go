package adapters_test

import (
	"bytes"
	"encoding/json"
	"path/filepath"
	"testing"

	"github.com/toolnexus/toolnexus/adapters"
	"github.com/toolnexus/toolnexus/golden"
)

// parsedTurn is a Turn as the golden files hold it.
type parsedTurn struct {
	Calls  []adapters.Call `json:"calls"`
	Text   string          `json:"text"`
	Stop   string          `json:"stop"`
	Replay []any           `json:"replay"`
	// Searches are the client-side tool searches, when there are some.
	Searches []adapters.Search `json:"searches,omitempty"`
}

// TestCallsGolden parses every provider's reply fixture and renders the
// result fixtures for its calls, against
// testdata/golden/calls/<provider>/{calls,results}.json (and, for MCP,
// the JSON-RPC responses.json).
func TestCallsGolden(t *testing.T) {
	for _, f := range replyFixtures {
		t.Run(f.provider, func(t *testing.T) {
			dir := filepath.Join("..", "testdata", "golden", "calls", f.provider)
			turn, err := parsers[f.provider]([]byte(f.reply))
			if err != nil {
				t.Fatalf("parse: %v", err)
			}
			golden.JSON(t, filepath.Join(dir, "calls.json"), parsedTurn{turn.Calls, turn.Text, turn.Stop, turn.Replay, turn.Searches})

			results, err := resultRenderers[f.provider](turn.Calls, resultFixtures)
			if err != nil {
				t.Fatalf("results: %v", err)
			}
			golden.JSON(t, filepath.Join(dir, "results.json"), results)
			if f.provider == "mcp" {
				responses, err := adapters.MCPResponses(turn.Calls, resultFixtures)
				if err != nil {
					t.Fatalf("MCPResponses: %v", err)
				}
				golden.JSON(t, filepath.Join(dir, "responses.json"), responses)
			}

			// Rendering is deterministic: a second pass gives the same bytes.
			again, err := resultRenderers[f.provider](turn.Calls, resultFixtures)
			if err != nil {
				t.Fatal(err)
			}
			a, _ := json.Marshal(results)
			b, _ := json.Marshal(again)
			if !bytes.Equal(a, b) {
				t.Errorf("second rendering differs:\n%s\n%s", a, b)
			}
		})
	}
}
