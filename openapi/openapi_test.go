package openapi

import (
	"bytes"
	"encoding/json"
	"testing"
)

// The document is kept formatted with 2-space indentation, one property a
// line, and ends with a newline, so that diffs of it stay readable.
func TestDocumentIsFormatted(t *testing.T) {
	if !json.Valid(Document) {
		t.Fatal("openapi.json is not valid JSON")
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
