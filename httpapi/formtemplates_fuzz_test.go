package httpapi

import (
	"encoding/json"
	"testing"

	practiced "github.com/practiced/practiced"
)

var templateSeeds = []string{
	`{"name":"Intake","content":[{"sections":[{"title":"A","questions":[{"id":"a","type":"short_text","label":"A","client_field":"email"}]}]}]}`,
	`{"name":"X","color":"#2E86AB","content":[{"sections":[{"questions":[{"id":"c","type":"multiple_choice","label":"C","options":["x","y"]}]}]}]}`,
	`{"name":"X","content":[{"sections":[]},"x",{"sections":[{"questions":[{"id":1},"q"]}]}]}`,
	`{"name":null,"content":null,"prefill_client_fields":"yes"}`,
	`{"name":"X","content":[{"sections":[{"questions":[{"id":"a","type":"date","label":"D","client_field":"date_of_birth","answer":"x"}]}]}]}`,
	`{}`, `[]`, `null`, `{"content":`,
}

// FuzzReadTemplateBody: whatever the body, reading it answers a 400 or a
// 422, or gives a template whose name is set and whose content keeps
// every rule of practiced.CheckContent.
func FuzzReadTemplateBody(f *testing.F) {
	for _, s := range templateSeeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		var errs practiced.FieldErrors
		o, err := decodeObject(body, &errs)
		if err != nil {
			if practiced.ErrorCode(err) != practiced.EBADREQUEST {
				t.Fatalf("decode failed with %v, want a bad request", err)
			}
			return
		}
		p := readTemplate(o, nil)
		if !errs.Empty() {
			if err := errs.Err(); practiced.ErrorCode(err) != practiced.EINVALID {
				t.Fatalf("field errors gave %v", err)
			}
			return
		}
		var tpl practiced.FormTemplate
		p.apply(&tpl)
		if tpl.Name == "" {
			t.Fatal("an accepted template has no name")
		}
		var again practiced.FieldErrors
		practiced.CheckContent(tpl.Content, "content", &again)
		if !again.Empty() {
			t.Fatalf("accepted content breaks a rule: %v", again.Err())
		}
		if _, err := json.Marshal(tpl); err != nil {
			t.Fatal(err)
		}
	})
}
