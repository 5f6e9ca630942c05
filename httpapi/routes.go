package httpapi

import (
	"net/http"

	practiced "github.com/practiced/practiced"
	"github.com/practiced/practiced/openapi"
)

// routes registers every endpoint. Handlers wrapped in s.auth need an API
// key; s.write marks those that change data (refused to read-only keys).
func (s *Server) routes() {
	s.mux.HandleFunc("GET /healthz", s.healthz)
	s.mux.HandleFunc("GET /v1/openapi.json", s.openAPI)

	// Clients, busy times and the change feed.
	s.mux.Handle("GET /v1/clients", s.auth(s.listClients))
	s.mux.Handle("POST /v1/clients", s.write(s.createClient))
	s.mux.Handle("GET /v1/clients/{id}", s.auth(getOne(practiced.PrefixClient, "Client", s.store.GetClient, nil)))
	s.mux.Handle("POST /v1/clients/{client}", s.write(s.updateClient))
	s.mux.Handle("POST /v1/clients/{id}/archive", s.write(s.archiveOne(practiced.PrefixClient, "Client", anyArchiver(s.store.ArchiveClient), true)))
	s.mux.Handle("POST /v1/clients/{id}/unarchive", s.write(s.archiveOne(practiced.PrefixClient, "Client", anyArchiver(s.store.ArchiveClient), false)))
	s.mux.Handle("GET /v1/busy_times", s.auth(s.listBusyTimes))
	s.mux.Handle("POST /v1/busy_times", s.write(s.createBusyTime))
	s.mux.Handle("GET /v1/availability_slots", s.auth(s.listAvailabilitySlots))
	// end of clients, busy times and the change feed

	// The clinic's set-up and people.
	s.mux.Handle("GET /v1/locations", s.auth(s.listLocations))
	s.mux.Handle("GET /v1/contacts", s.auth(s.listContacts))
	// end of set-up and people

	// Appointments.
	s.mux.Handle("GET /v1/appointment_clients", s.auth(s.listAppointmentClients))
	// end of appointments

	// Forms.
	s.mux.Handle("GET /v1/forms", s.auth(s.listForms))
	// end of forms
}

func (s *Server) healthz(w http.ResponseWriter, r *http.Request) {
	writeJSON(w, http.StatusOK, map[string]string{"status": "ok"})
}

// openAPI serves the API's OpenAPI document; it needs no key.
func (s *Server) openAPI(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Content-Type", "application/json")
	w.Write(openapi.Document)
}
