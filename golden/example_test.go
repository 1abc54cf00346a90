package golden_test

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/toolnexus/toolnexus/golden"
)

// printT prints what a test would report, to show the idiom in godoc.
type printT struct{ testing.TB }

func (printT) Helper()                           {}
func (printT) Errorf(format string, args ...any) { fmt.Printf("FAIL: "+format+"\n", args...) }
func (printT) Fatalf(format string, args ...any) { fmt.Printf("FATAL: "+format+"\n", args...) }
func (printT) Logf(format string, args ...any)   { fmt.Printf(format+"\n", args...) }

type weatherArgs struct {
	City string `json:"city"`
	Days int    `json:"days"`
}

func ExampleJSON() {
	dir, _ := os.MkdirTemp("", "golden")
	defer os.RemoveAll(dir)
	path := filepath.Join(dir, "weather.json")

	// In a test: golden.JSON(t, "testdata/golden/weather.json", value).
	// Here the file is written first, as -update would.
	data, _ := golden.Marshal(weatherArgs{City: "Paris", Days: 3})
	_ = os.WriteFile(path, data, 0o644)
	fmt.Print(string(data))

	golden.JSON(printT{}, path, weatherArgs{City: "Paris", Days: 3})
	fmt.Println("same value: no report")
	// Output:
	// {
	//   "city": "Paris",
	//   "days": 3
	// }
	// same value: no report
}
