// Package golden checks JSON renderings against golden files, for tests of
// tool schemas and provider payloads.
//
// One call per file:
//
//	func TestWeatherSchema(t *testing.T) {
//		s, err := schema.For[WeatherArgs]()
//		if err != nil {
//			t.Fatal(err)
//		}
//		golden.JSON(t, "testdata/golden/weather.json", s)
//	}
//
// # Updating
//
// Run the test with -update (or with TOOLNEXUS_UPDATE_GOLDEN=1 in the
// environment) to write the files instead of comparing; review the change
// with git diff. The package registers the -update flag only when the test
// binary has none: a package that defines its own -update flag keeps it, and
// golden reads that one.
//
// # File format
//
// A golden file holds the value as encoding/json marshals it (so a
// MarshalJSON method decides key order), indented with two spaces, without
// HTML escaping, with a trailing newline. The comparison is byte for byte:
// a change in key order or formatting fails, with a message that says the
// JSON values are equal; a change in value fails with a go-cmp diff.
package golden
