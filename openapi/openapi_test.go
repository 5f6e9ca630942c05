package openapi

import (
	"bytes"
	"encoding/json"
	"io/fs"
	"testing"
	"testing/fstest"
)

// The document is kept formatted with 2-space indentation, one property a
// line, and ends with a newline, so that diffs of it stay readable.
func TestDocumentIsFormatted(t *testing.T) {
	files := map[string][]byte{"openapi.json": base}
	names, _ := fs.Glob(fragments, "fragments/*.json")
	for _, n := range names {
		files[n], _ = fs.ReadFile(fragments, n)
	}
	for name, doc := range files {
		t.Run(name, func(t *testing.T) { checkFormatted(t, doc) })
	}
}

func checkFormatted(t *testing.T, Document []byte) {
	if !json.Valid(Document) {
		t.Fatal("not valid JSON")
	}
	var compact, indented bytes.Buffer
	if err := json.Compact(&compact, Document); err != nil {
		t.Fatal(err)
	}
	if err := json.Indent(&indented, compact.Bytes(), "", "  "); err != nil {
		t.Fatal(err)
	}
	indented.WriteByte('\n')
	if !bytes.Equal(indented.Bytes(), Document) {
		got, want := bytes.Split(Document, []byte("\n")), bytes.Split(indented.Bytes(), []byte("\n"))
		for i := range min(len(got), len(want)) {
			if !bytes.Equal(got[i], want[i]) {
				t.Fatalf("openapi.json is not formatted with 2-space indentation: line %d is\n%s\nwant\n%s", i+1, got[i], want[i])
			}
		}
		t.Fatalf("openapi.json is not formatted with 2-space indentation (%d lines, want %d)", len(got), len(want))
	}
}

func TestDocumentHeader(t *testing.T) {
	var doc struct {
		OpenAPI string `json:"openapi"`
		Info    struct {
			Version string `json:"version"`
		} `json:"info"`
		Servers []struct {
			URL string `json:"url"`
		} `json:"servers"`
	}
	if err := json.Unmarshal(Document, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.OpenAPI != "3.1.0" || doc.Info.Version != "0.0.1" || len(doc.Servers) != 1 || doc.Servers[0].URL != "/v1" {
		t.Errorf("openapi %q, info.version %q, servers %v; want 3.1.0, 0.0.1, [/v1]", doc.OpenAPI, doc.Info.Version, doc.Servers)
	}
}

func TestMergeAddsOperationsAndRefusesRedefinitions(t *testing.T) {
	baseDoc := []byte(`{"openapi":"3.1.0","paths":{"/a":{"get":{"x":1}}},"components":{"schemas":{"A":{}}}}`)
	good := fstest.MapFS{
		"fragments/b.json": {Data: []byte(`{"paths":{"/a":{"post":{"y":2}},"/b":{"get":{}}},"components":{"schemas":{"B":{}}}}`)},
	}
	out, err := Merge(baseDoc, good)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Paths      map[string]map[string]any `json:"paths"`
		Components struct {
			Schemas map[string]any `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Paths["/a"]) != 2 || doc.Paths["/b"] == nil || len(doc.Components.Schemas) != 2 {
		t.Fatalf("merged document %s", out)
	}
	for name, frag := range map[string]string{
		"operation twice": `{"paths":{"/a":{"get":{}}}}`,
		"schema twice":    `{"components":{"schemas":{"A":{}}}}`,
		"other key":       `{"info":{}}`,
		"not JSON":        `{`,
	} {
		_, err := Merge(baseDoc, fstest.MapFS{"fragments/x.json": {Data: []byte(frag)}})
		if err == nil {
			t.Errorf("%s: merged without an error", name)
		}
	}
}
