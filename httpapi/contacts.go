package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
)

// personFilter reads the filters of the client and contact lists.
func personFilter(l *listRequest) practiced.PersonFilter {
	f := practiced.PersonFilter{
		ListFilter: l.q.listFilter(),
		Query:      l.q.text("q", 255),
		TagID:      l.q.id("tag_id", practiced.PrefixTag),
	}
	if phone, ok := practiced.PhoneQuery(f.Query, practiced.DefaultPhoneRegion); ok {
		f.Phone = phone
	}
	return f
}

// GET /v1/contacts
func (s *Server) listContacts(w http.ResponseWriter, r *http.Request) error {
	l := newList(r, "contacts", 100)
	f := personFilter(l)
	if err := l.done(); err != nil {
		return err
	}
	data, info, err := s.store.ListContactDocs(r.Context(), businessID(r.Context()), f, l.page)
	if err != nil {
		return err
	}
	return respondList(s, w, r, l, data, info)
}

// contacts creates and updates contacts.
func (s *Server) contacts() *resource[practiced.Contact] {
	return &resource[practiced.Contact]{
		kind: practiced.KindContact,
		get:  s.store.GetContact, create: s.store.CreateContact, update: s.store.UpdateContact,
		fresh: func(id string, now practiced.Time) practiced.Contact {
			return practiced.Contact{ID: id, PhoneNumbers: []practiced.PhoneNumber{}, TagIDs: []string{}, CreatedAt: now, UpdatedAt: now}
		},
		read:  readContact,
		touch: func(c *practiced.Contact, now practiced.Time) { c.UpdatedAt = now },
	}
}

// readContact reads a contact's body. Its text fields, phone numbers and
// address follow the rules of a client's.
func readContact(o *object, stored *practiced.Contact) *patch[practiced.Contact] {
	p := &patch[practiced.Contact]{}
	setText(p, mandatoryEnum(o, "type", practiced.ContactTypes, stored == nil), func(c *practiced.Contact) *string { return &c.Type })
	for _, f := range []struct {
		field string
		dst   func(*practiced.Contact) *string
	}{
		{"title", func(c *practiced.Contact) *string { return &c.Title }},
		{"first_name", func(c *practiced.Contact) *string { return &c.FirstName }},
		{"last_name", func(c *practiced.Contact) *string { return &c.LastName }},
		{"preferred_name", func(c *practiced.Contact) *string { return &c.PreferredName }},
		{"profession", func(c *practiced.Contact) *string { return &c.Profession }},
		{"company", func(c *practiced.Contact) *string { return &c.Company }},
	} {
		setText(p, o.str(f.field, shortText), f.dst)
	}
	setText(p, o.email("email"), func(c *practiced.Contact) *string { return &c.Email })
	setText(p, o.str("notes", longText), func(c *practiced.Contact) *string { return &c.Notes })
	var country string
	if stored != nil {
		country = stored.Address.CountryCode
	}
	if phones, set := o.phoneNumbers("phone_numbers", 20, o.phoneRegion(country)); set {
		p.change(func(c *practiced.Contact) { c.PhoneNumbers = mergePhoneNumbers(c.PhoneNumbers, phones) })
	}
	if change := o.addressPatch("address"); change != nil {
		p.change(func(c *practiced.Contact) { change(&c.Address) })
	}
	setIDs(p, "tag_ids", o.ids("tag_ids", maxItems, practiced.PrefixTag), func(c *practiced.Contact) *[]string { return &c.TagIDs })
	o.finish()
	return p
}
