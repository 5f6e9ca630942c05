package practiced

import "strings"

// Id prefixes. Every id is "<prefix>_<suffix>" (package tid); the prefix
// says what the id names. The prefixes of the kinds of records are also
// in Kinds below, with everything else every layer needs to know of them.
const (
	PrefixBusiness           = "biz"
	PrefixAPIKey             = "key"
	PrefixBusyTime           = "bti"
	PrefixBusyTimeType       = "btt"
	PrefixLocation           = "loc"
	PrefixPractitioner       = "pra"
	PrefixForm               = "for"
	PrefixClient             = "cli"
	PrefixFormTemplate       = "fte"
	PrefixAppointmentClient  = "apc"
	PrefixAppointment        = "apt"
	PrefixCase               = "cas"
	PrefixClientPackage      = "cpk"
	PrefixCancellationReason = "cnr"
	PrefixContact            = "con"
	PrefixReferralType       = "ret"
	PrefixTag                = "tag"
	PrefixPhoneNumber        = "pho"
	PrefixService            = "ser"
	PrefixMedia              = "med"
	PrefixEvent              = "evt"
	PrefixRepeat             = "rep"
)

// Kind is one kind of record of the API, with the names each layer gives
// it: its id prefix, its record_type in the change feed, its resource
// name in paths (which is also its SQL table), and its name in messages.
type Kind struct {
	Prefix string // id prefix, e.g. "bti"
	Type   string // record_type in events, e.g. "busy_time"
	Plural string // path segment and SQL table, e.g. "busy_times"
	Name   string // in messages, e.g. "Busy time"
	// Named marks the four kinds of named records (tags, referral
	// types, cancellation reasons and busy time types), which share one
	// shape (Named) and one implementation; HasColor marks those of them
	// that carry a color.
	Named    bool
	HasColor bool
}

// The kinds of records, one variable each, in the order of Kinds.
var (
	KindAppointment        = Kind{Prefix: PrefixAppointment, Type: "appointment", Plural: "appointments", Name: "Appointment"}
	KindAppointmentClient  = Kind{Prefix: PrefixAppointmentClient, Type: "appointment_client", Plural: "appointment_clients", Name: "Appointment client"}
	KindBusyTime           = Kind{Prefix: PrefixBusyTime, Type: "busy_time", Plural: "busy_times", Name: "Busy time"}
	KindBusyTimeType       = Kind{Prefix: PrefixBusyTimeType, Type: "busy_time_type", Plural: "busy_time_types", Name: "Busy time type", Named: true, HasColor: true}
	KindCancellationReason = Kind{Prefix: PrefixCancellationReason, Type: "cancellation_reason", Plural: "cancellation_reasons", Name: "Cancellation reason", Named: true}
	KindCase               = Kind{Prefix: PrefixCase, Type: "case", Plural: "cases", Name: "Case"}
	KindClient             = Kind{Prefix: PrefixClient, Type: "client", Plural: "clients", Name: "Client"}
	KindClientPackage      = Kind{Prefix: PrefixClientPackage, Type: "client_package", Plural: "client_packages", Name: "Client package"}
	KindContact            = Kind{Prefix: PrefixContact, Type: "contact", Plural: "contacts", Name: "Contact"}
	KindForm               = Kind{Prefix: PrefixForm, Type: "form", Plural: "forms", Name: "Form"}
	KindFormTemplate       = Kind{Prefix: PrefixFormTemplate, Type: "form_template", Plural: "form_templates", Name: "Form template"}
	KindLocation           = Kind{Prefix: PrefixLocation, Type: "location", Plural: "locations", Name: "Location"}
	KindMessage            = Kind{Prefix: PrefixMessage, Type: "message", Plural: "messages", Name: "Message"}
	KindPractitioner       = Kind{Prefix: PrefixPractitioner, Type: "practitioner", Plural: "practitioners", Name: "Practitioner"}
	KindReferralType       = Kind{Prefix: PrefixReferralType, Type: "referral_type", Plural: "referral_types", Name: "Referral type", Named: true}
	KindService            = Kind{Prefix: PrefixService, Type: "service", Plural: "services", Name: "Service"}
	KindTag                = Kind{Prefix: PrefixTag, Type: "tag", Plural: "tags", Name: "Tag", Named: true, HasColor: true}
)

// KindEvent is the change feed's own kind. Events describe changes to
// the records of Kinds and are never changed themselves, so it is not
// one of Kinds.
var KindEvent = Kind{Prefix: PrefixEvent, Type: "event", Plural: "events", Name: "Event"}

// Kinds lists every kind of record whose changes the change feed
// records, in the order of their Type.
var Kinds = []Kind{
	KindAppointment, KindAppointmentClient, KindBusyTime, KindBusyTimeType, KindCancellationReason,
	KindCase, KindClient, KindClientPackage, KindContact, KindForm, KindFormTemplate, KindLocation,
	KindMessage, KindPractitioner, KindReferralType, KindService, KindTag,
}

// NamedKinds lists the four kinds of named records, in the order of Kinds.
var NamedKinds = kindsWhere(func(k Kind) bool { return k.Named })

// RecordTypes are the record_type values of events: the Type of each of
// Kinds.
var RecordTypes = kindTypes(Kinds)

// KindOf returns the kind of record an id names by its prefix; ok is
// false for an id of no kind of Kinds.
func KindOf(id string) (k Kind, ok bool) {
	prefix, _, found := strings.Cut(id, "_")
	if !found {
		return Kind{}, false
	}
	for _, k := range Kinds {
		if k.Prefix == prefix {
			return k, true
		}
	}
	return Kind{}, false
}

// NamedKindOf returns the kind of named record an id names by its prefix;
// ok is false for an id of any other kind.
func NamedKindOf(id string) (k Kind, ok bool) {
	k, ok = KindOf(id)
	if !ok || !k.Named {
		return Kind{}, false
	}
	return k, true
}

func kindsWhere(keep func(Kind) bool) []Kind {
	var out []Kind
	for _, k := range Kinds {
		if keep(k) {
			out = append(out, k)
		}
	}
	return out
}

func kindTypes(kinds []Kind) []string {
	out := make([]string, len(kinds))
	for i, k := range kinds {
		out[i] = k.Type
	}
	return out
}
