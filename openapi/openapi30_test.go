package openapi

import (
	"encoding/json"
	"reflect"
	"testing"
)

func TestConvert30(t *testing.T) {
	in := `{"openapi":"3.1.0","info":{"title":"t","version":"1","summary":"s"},"paths":{"/a":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":["integer","null"]}}]}}},
	"components":{"schemas":{
		"Nullable":{"type":["string","null"],"enum":["a",null]},
		"Union":{"type":["string","array"],"items":{"type":"string"},"maxLength":3},
		"Any":{"type":["null","boolean","object","array","number","string"],"items":{}},
		"Const":{"const":"x","examples":["x","y"]},
		"Ref":{"anyOf":[{"$ref":"#/components/schemas/Obj"},{"type":"null"}]},
		"Obj":{"type":"object","properties":{"n":{"type":"number","exclusiveMinimum":0}}},
		"Email":{"type":"string","anyOf":[{"format":"email"},{"maxLength":0}]}}}}`
	out, err := Convert30([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(out, &doc); err != nil {
		t.Fatal(err)
	}
	var want map[string]any
	if err := json.Unmarshal([]byte(`{"openapi":"3.0.3","info":{"title":"t","version":"1"},"paths":{"/a":{"get":{"parameters":[{"name":"q","in":"query","schema":{"type":"integer","nullable":true}}]}}},
	"components":{"schemas":{
		"Nullable":{"type":"string","nullable":true,"enum":["a",null]},
		"Union":{"oneOf":[{"type":"string","maxLength":3},{"type":"array","items":{"type":"string"}}]},
		"Any":{},
		"Const":{"enum":["x"],"example":"x"},
		"Ref":{"allOf":[{"$ref":"#/components/schemas/Obj"}],"nullable":true,"type":"object"},
		"Obj":{"type":"object","properties":{"n":{"type":"number","minimum":0,"exclusiveMinimum":true}}},
		"Email":{"type":"string"}}}}`), &want); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(doc, want) {
		got, _ := json.Marshal(doc)
		t.Errorf("got %s", got)
	}
	if _, err := Convert30([]byte(`{"openapi":"3.0.3"}`)); err == nil {
		t.Error("a 3.0 document converted without an error")
	}
}
