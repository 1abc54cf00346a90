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
// Run the tests with TOOLNEXUS_UPDATE_GOLDEN=1 in the environment
// (TOOLNEXUS_UPDATE_GOLDEN=1 go test ./...) to write the files instead of
// comparing; review the change with git diff. Every test binary reads or
// ignores the variable, so it works over any list of packages.
//
// golden defines no flag of its own and never touches the command line.
// A test package that wants -update defines it, and golden follows it:
//
//	var _ = flag.Bool("update", false, "rewrite golden files")
//
// then go test ./pkg -update rewrites that package's files (a package that
// does not define the flag fails on it, as for any flag it does not know).
//
// # File format
//
// A golden file holds the value as encoding/json marshals it (so a
// MarshalJSON method decides key order), indented with two spaces, without
// HTML escaping, with a trailing newline. The comparison is byte for byte:
// a change in value fails with the list of changed JSON paths, named by
// tool (tool "search": parameters.properties.tags.maxItems: 50 -> 60),
// followed by a unified diff of the indented JSON with three lines of
// context around each change, cut to a few dozen lines; a change in key order or formatting alone fails with a message that
// says the JSON values are equal and shows the first line that differs.
package golden
