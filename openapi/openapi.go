// Package openapi holds the OpenAPI 3.1 description of the API. The base
// document (openapi.json) describes the shared parts and the first
// operations; each area of the API adds its paths and components in a
// fragment of its own (fragments/*.json), so areas can grow side by side.
// Document is the base with every fragment merged in.
package openapi

import (
	"bytes"
	"embed"
	"encoding/json"
	"fmt"
	"io/fs"
	"sort"
)

//go:embed openapi.json
var base []byte

//go:embed fragments
var fragments embed.FS

// Document is the whole OpenAPI document, served at GET /v1/openapi.json.
var Document = mustMerge()

func mustMerge() []byte {
	doc, err := Merge(base, fragments)
	if err != nil {
		panic(fmt.Sprintf("openapi: %v", err))
	}
	return doc
}

// Merge adds the paths and components of every fragments/*.json file to
// the base document. A fragment may add operations to a path the base or
// another fragment has, but may not redefine an operation or a component.
func Merge(baseDoc []byte, frags fs.FS) ([]byte, error) {
	var doc map[string]any
	if err := json.Unmarshal(baseDoc, &doc); err != nil {
		return nil, fmt.Errorf("openapi.json: %w", err)
	}
	names, err := fs.Glob(frags, "fragments/*.json")
	if err != nil {
		return nil, err
	}
	sort.Strings(names)
	for _, name := range names {
		b, err := fs.ReadFile(frags, name)
		if err != nil {
			return nil, err
		}
		var frag map[string]any
		if err := json.Unmarshal(b, &frag); err != nil {
			return nil, fmt.Errorf("%s: %w", name, err)
		}
		for key := range frag {
			if key != "paths" && key != "components" {
				return nil, fmt.Errorf("%s: a fragment holds only paths and components, not %q", name, key)
			}
		}
		if err := mergeLevel(doc, "paths", frag, 2, name); err != nil {
			return nil, err
		}
		if err := mergeLevel(doc, "components", frag, 2, name); err != nil {
			return nil, err
		}
	}
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// mergeLevel merges src[key] into dst[key], descending depth levels of
// objects; at the last level a key present on both sides is an error.
func mergeLevel(dst map[string]any, key string, src map[string]any, depth int, name string) error {
	s, ok := src[key].(map[string]any)
	if !ok {
		return nil
	}
	d, ok := dst[key].(map[string]any)
	if !ok {
		d = map[string]any{}
		dst[key] = d
	}
	for k, v := range s {
		if _, exists := d[k]; !exists {
			d[k] = v
			continue
		}
		if depth <= 1 {
			return fmt.Errorf("%s: %s.%s is defined twice", name, key, k)
		}
		sub, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("%s: %s.%s is not an object", name, key, k)
		}
		if err := mergeLevel(d, k, map[string]any{k: sub}, depth-1, name); err != nil {
			return err
		}
	}
	return nil
}
