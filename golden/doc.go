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
// Run the tests with -update after the package list (go test ./... -update;
// go test -update ./... would take ./... as the flag's value), or with
// TOOLNEXUS_UPDATE_GOLDEN=1 in the environment, to write the files instead
// of comparing; review the change with git diff. go test hands -update to
// every test binary it runs, and one whose package neither imports golden
// nor defines -update fails on it: then list the packages that use golden,
// or use the environment variable, which every binary ignores or reads.
//
// A test package may define its own -update flag: golden does not define a
// flag named update, so there is no "flag redefined" panic, and it reads
// the package's flag when there is one. When the command line holds -update
// and no package defined it before golden's init, golden renames that
// argument to -toolnexus.golden.update, a flag it registers, whose value
// also goes to a package's own -update defined later.
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
