package golden

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fakeT records what JSON reports instead of failing the test.
type fakeT struct {
	testing.TB
	errors, fatals, logs []string
}

func (f *fakeT) Helper() {}
func (f *fakeT) Errorf(format string, a ...any) {
	f.errors = append(f.errors, fmt.Sprintf(format, a...))
}
func (f *fakeT) Fatalf(format string, a ...any) {
	f.fatals = append(f.fatals, fmt.Sprintf(format, a...))
}
func (f *fakeT) Logf(format string, a ...any) { f.logs = append(f.logs, fmt.Sprintf(format, a...)) }

func (f *fakeT) failures() string { return strings.Join(append(f.errors, f.fatals...), "\n") }

// setUpdate sets the -update flag for the duration of the test.
func setUpdate(t *testing.T, v bool) {
	t.Helper()
	fl := flag.Lookup("update")
	old := fl.Value.String()
	if err := fl.Value.Set(fmt.Sprint(v)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = fl.Value.Set(old) })
	t.Setenv(EnvUpdate, "")
}

type ordered struct {
	B string `json:"b"`
	A []int  `json:"a"`
	H string `json:"h"`
}

func TestMarshal(t *testing.T) {
	got, err := Marshal(ordered{B: "x", A: []int{1, 2}, H: "<&>"})
	if err != nil {
		t.Fatal(err)
	}
	want := "{\n  \"b\": \"x\",\n  \"a\": [\n    1,\n    2\n  ],\n  \"h\": \"<&>\"\n}\n"
	if string(got) != want {
		t.Errorf("Marshal = %q, want %q", got, want)
	}
}

func TestJSONMatch(t *testing.T) {
	setUpdate(t, false)
	path := filepath.Join(t.TempDir(), "x.json")
	if err := os.WriteFile(path, []byte("{\n  \"b\": \"x\",\n  \"a\": null,\n  \"h\": \"\"\n}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fakeT{}
	JSON(ft, path, ordered{B: "x"})
	if f := ft.failures(); f != "" {
		t.Errorf("JSON on a matching file failed: %s", f)
	}
}

func TestJSONMissing(t *testing.T) {
	setUpdate(t, false)
	ft := &fakeT{}
	JSON(ft, filepath.Join(t.TempDir(), "missing.json"), ordered{})
	if len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "-update") {
		t.Errorf("JSON on a missing file reported %q, want one error mentioning -update", ft.errors)
	}
}

func TestJSONValueMismatch(t *testing.T) {
	setUpdate(t, false)
	path := filepath.Join(t.TempDir(), "x.json")
	want, _ := Marshal(ordered{B: "old"})
	if err := os.WriteFile(path, want, 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fakeT{}
	JSON(ft, path, ordered{B: "new"})
	if len(ft.errors) != 1 {
		t.Fatalf("JSON reported %d errors, want 1: %q", len(ft.errors), ft.errors)
	}
	msg := ft.errors[0]
	for _, s := range []string{"(-want +got)", `-`, `"old"`, `+`, `"new"`} {
		if !strings.Contains(msg, s) {
			t.Errorf("mismatch message lacks %q:\n%s", s, msg)
		}
	}
}

func TestJSONByteDrift(t *testing.T) {
	setUpdate(t, false)
	path := filepath.Join(t.TempDir(), "x.json")
	// Same value, other key order and formatting.
	if err := os.WriteFile(path, []byte(`{"a":null,"b":"x","h":""}`), 0o644); err != nil {
		t.Fatal(err)
	}
	ft := &fakeT{}
	JSON(ft, path, ordered{B: "x"})
	if len(ft.errors) != 1 || !strings.Contains(ft.errors[0], "same JSON value but different bytes") {
		t.Errorf("JSON on byte drift reported %q, want one error about different bytes", ft.errors)
	}
}

func TestJSONUpdate(t *testing.T) {
	for _, byEnv := range []bool{false, true} {
		t.Run(fmt.Sprintf("env=%v", byEnv), func(t *testing.T) {
			setUpdate(t, !byEnv)
			if byEnv {
				t.Setenv(EnvUpdate, "1")
			}
			if !Updating() {
				t.Fatal("Updating() = false, want true")
			}
			path := filepath.Join(t.TempDir(), "new", "dir", "x.json")
			ft := &fakeT{}
			JSON(ft, path, ordered{B: "x"})
			if f := ft.failures(); f != "" {
				t.Fatalf("JSON while updating failed: %s", f)
			}
			got, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			want, _ := Marshal(ordered{B: "x"})
			if string(got) != string(want) {
				t.Errorf("written file = %q, want %q", got, want)
			}
			if len(ft.logs) != 1 {
				t.Errorf("logs = %q, want one line naming the file", ft.logs)
			}
		})
	}
}

func TestJSONUnmarshalable(t *testing.T) {
	setUpdate(t, false)
	ft := &fakeT{}
	JSON(ft, filepath.Join(t.TempDir(), "x.json"), func() {})
	if len(ft.fatals) != 1 {
		t.Errorf("JSON on a func value: fatals = %q, want one", ft.fatals)
	}
}
