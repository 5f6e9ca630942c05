package demo

import "strings"

// The tables the generators draw from. Names are common Australian given
// names and surnames combined at random, so no record describes a real
// person. Phone numbers come from the ranges the Australian Communications
// and Media Authority keeps for fiction, and e-mail addresses use reserved
// example domains, so nothing here can reach anyone.

// name is a table entry with its e-mail-safe lower-case form computed once,
// so generating a million e-mail addresses needs no per-record case
// folding.
type name struct {
	text, lower string
}

func names(list ...string) []name {
	out := make([]name, len(list))
	for i, s := range list {
		out[i] = name{s, emailSafe(s)}
	}
	return out
}

// emailSafe lower-cases s and drops what an e-mail local part should not
// carry, such as the apostrophe of O'Brien.
func emailSafe(s string) string {
	return strings.Map(func(r rune) rune {
		switch {
		case r >= 'a' && r <= 'z', r >= '0' && r <= '9':
			return r
		case r >= 'A' && r <= 'Z':
			return r + 'a' - 'A'
		}
		return -1
	}, s)
}

var femaleNames = names(
	"Olivia", "Charlotte", "Amelia", "Isla", "Mia", "Ava", "Grace", "Chloe",
	"Sophie", "Emily", "Ella", "Zoe", "Ruby", "Lily", "Hannah", "Sarah",
	"Jessica", "Emma", "Rebecca", "Laura", "Michelle", "Nicole", "Karen",
	"Linda", "Margaret", "Helen", "Susan", "Julie", "Lisa", "Priya", "Mei",
	"Linh", "Aisha", "Fatima", "Maria", "Sofia", "Georgia", "Matilda",
	"Harper", "Eleanor", "Katherine", "Elizabeth", "Jennifer", "Anh", "Leila",
)

var maleNames = names(
	"Oliver", "Noah", "Jack", "William", "Leo", "Lucas", "Thomas", "Henry",
	"James", "Charlie", "Liam", "Ethan", "Samuel", "Benjamin", "Daniel",
	"Matthew", "Joshua", "Ryan", "Luke", "Nathan", "Andrew", "Michael",
	"David", "Peter", "Mark", "Paul", "Stephen", "John", "Robert", "Anthony",
	"Raj", "Arjun", "Minh", "Wei", "Ahmed", "Omar", "Marco", "Giorgos",
	"Hamish", "Angus", "Alexander", "Christopher", "Kai", "Tariq",
)

var surnames = names(
	"Smith", "Jones", "Williams", "Brown", "Wilson", "Taylor", "Johnson",
	"White", "Martin", "Anderson", "Thompson", "Nguyen", "Thomas", "Walker",
	"Harris", "Lee", "Ryan", "Robinson", "Kelly", "King", "Davis", "Wright",
	"Evans", "Roberts", "Green", "Hall", "Wood", "Jackson", "Clarke", "Patel",
	"Khan", "Singh", "Kaur", "Tran", "Le", "Pham", "Chen", "Wang", "Li",
	"Zhang", "Liu", "Huang", "Kim", "Park", "Murphy", "O'Brien", "O'Connor",
	"Sullivan", "McDonald", "Campbell", "Stewart", "Scott", "Morris",
	"Cooper", "Bennett", "Mitchell", "Edwards", "Hughes", "Baker", "Young",
	"Turner", "Phillips", "Parker", "Cook", "Morgan", "Bell", "Russo",
	"Rossi", "Papadopoulos", "Nikolaidis", "Costa", "Silva", "Ali", "Ahmed",
	"Hassan", "Ibrahim", "Fernando", "Perera", "Gupta", "Sharma", "Reid",
	"Ross", "Fraser", "Hunter", "Watson", "Collins", "Murray", "Graham",
	"Kennedy", "Lawson", "Nguyen-Tran", "Abdullah", "Dimitriou", "Walsh",
)

// nicknames are the preferred names some clients go by.
var nicknames = map[string]string{
	"Katherine": "Kate", "Elizabeth": "Liz", "Jennifer": "Jen", "Margaret": "Maggie",
	"Rebecca": "Bec", "William": "Will", "Benjamin": "Ben", "Samuel": "Sam",
	"Matthew": "Matt", "Michael": "Mike", "Christopher": "Chris", "Alexander": "Alex",
	"Anthony": "Tony", "Daniel": "Dan", "Thomas": "Tom", "Andrew": "Andy",
	"Robert": "Rob", "Stephen": "Steve", "Joshua": "Josh", "Nathan": "Nate",
	"Eleanor": "Ellie", "Charlotte": "Lottie", "Jessica": "Jess",
}

var emailDomains = []string{"example.com", "example.net", "example.org", "mail.example", "inbox.example"}

var professions = []string{
	"Teacher", "Registered nurse", "Accountant", "Electrician", "Retired",
	"Software developer", "Chef", "Carpenter", "Office manager",
	"Retail assistant", "Plumber", "Lawyer", "Truck driver", "Hairdresser",
	"Police officer", "Barista", "Civil engineer", "Social worker",
	"Graphic designer", "Personal trainer", "Warehouse supervisor", "Student",
}

// suburb is a place clients and contacts live, with its approximate centre
// for the geocoded addresses some clients carry.
type suburb struct {
	name, state, postcode string
	areaCode              string // landline area code without the trunk 0
	lat, lng              float64
}

var suburbs = []suburb{
	{"Surry Hills", "NSW", "2010", "2", -33.8861, 151.2111},
	{"Newtown", "NSW", "2042", "2", -33.8981, 151.1794},
	{"Marrickville", "NSW", "2204", "2", -33.9106, 151.1553},
	{"Bondi", "NSW", "2026", "2", -33.8915, 151.2767},
	{"Randwick", "NSW", "2031", "2", -33.9145, 151.2412},
	{"Glebe", "NSW", "2037", "2", -33.8791, 151.1854},
	{"Leichhardt", "NSW", "2040", "2", -33.8836, 151.1566},
	{"Parramatta", "NSW", "2150", "2", -33.8150, 151.0011},
	{"Chatswood", "NSW", "2067", "2", -33.7969, 151.1803},
	{"Redfern", "NSW", "2016", "2", -33.8930, 151.2045},
	{"Norwood", "SA", "5067", "8", -34.9211, 138.6317},
	{"Unley", "SA", "5061", "8", -34.9500, 138.6067},
	{"Prospect", "SA", "5082", "8", -34.8834, 138.5944},
	{"Glenelg", "SA", "5045", "8", -34.9800, 138.5150},
	{"Burnside", "SA", "5066", "8", -34.9389, 138.6494},
	{"Magill", "SA", "5072", "8", -34.9100, 138.6760},
	{"Kensington", "SA", "5068", "8", -34.9220, 138.6450},
	{"Subiaco", "WA", "6008", "8", -31.9474, 115.8241},
	{"Leederville", "WA", "6007", "8", -31.9367, 115.8414},
	{"Fremantle", "WA", "6160", "8", -32.0569, 115.7439},
	{"Scarborough", "WA", "6019", "8", -31.8940, 115.7640},
	{"Victoria Park", "WA", "6100", "8", -31.9764, 115.9050},
	{"Claremont", "WA", "6010", "8", -31.9800, 115.7820},
	{"Mount Lawley", "WA", "6050", "8", -31.9330, 115.8730},
}

var streets = []string{
	"Church", "George", "King", "Queen", "Victoria", "Albert", "High",
	"Station", "Park", "Railway", "William", "Elizabeth", "Wattle", "Acacia",
	"Banksia", "Jacaranda", "Grevillea", "Bottlebrush", "Ocean", "Beach",
	"Hill", "Mill", "Bridge", "Oxford", "Cambridge", "Alfred", "Edward",
	"Princes", "Marion", "Fullarton", "Hay", "Murray", "Stirling", "Rokeby",
	"Beaufort", "Cleveland", "Crown", "Bourke", "Riley", "Moreton",
}

var streetTypes = []string{"Street", "Road", "Avenue", "Lane", "Parade", "Crescent", "Place", "Drive", "Terrace", "Close", "Way"}

var medications = []struct{ name, dosage string }{
	{"Metformin", "500 mg twice daily"},
	{"Atorvastatin", "20 mg at night"},
	{"Ramipril", "5 mg daily"},
	{"Sertraline", "50 mg daily"},
	{"Salbutamol inhaler", "2 puffs as needed"},
	{"Paracetamol", "1 g up to four times daily as needed"},
	{"Ibuprofen", "400 mg three times daily with food"},
	{"Levothyroxine", "100 mcg daily"},
	{"Escitalopram", "10 mg daily"},
	{"Methylphenidate", "10 mg twice daily"},
	{"Pregabalin", "75 mg twice daily"},
	{"Perindopril", "5 mg daily"},
	{"Apixaban", "5 mg twice daily"},
}

var allergies = []struct{ name, reaction string }{
	{"Penicillin", "Hives"},
	{"Codeine", "Nausea and vomiting"},
	{"Latex", "Contact dermatitis"},
	{"Peanuts", "Anaphylaxis, carries an adrenaline autoinjector"},
	{"Bee stings", "Local swelling"},
	{"Sulfonamides", "Rash"},
	{"Adhesive tape", "Skin irritation"},
}

var intolerances = []string{"Lactose", "Gluten", "Kinesiology tape", "Strong fragrances", "Ibuprofen", "Massage oil (nut based)"}

var clientNotes = []string{
	"Prefers afternoon appointments.",
	"Works night shifts, book after 11am.",
	"Post-operative rehab following total knee replacement.",
	"Hard of hearing, please face the client when speaking.",
	"Parent or guardian attends all sessions.",
	"Prefers SMS over phone calls.",
	"Happy to be called for short-notice cancellations.",
	"Training for a half marathon in spring.",
	"Previous physio treatment elsewhere in 2023, notes requested.",
}

var clientAlerts = []string{
	"Latex allergy, use nitrile gloves.",
	"Falls risk, assist on and off the plinth.",
	"Requires an interpreter (Vietnamese).",
	"Wheelchair user, book the ground-floor room.",
	"Outstanding invoice, please discuss at reception.",
}

var relationships = []string{"Partner", "Spouse", "Mother", "Father", "Daughter", "Son", "Sister", "Brother", "Friend", "Carer"}

var referralDescriptions = []string{
	"Referral letter on file.",
	"Found us on a map search.",
	"Recommended by a colleague.",
	"Referred by the insurer's case manager.",
	"Saw our stall at the community health expo.",
}

var diagnoses = []string{
	"Autism spectrum disorder", "Cerebral palsy", "Acquired brain injury",
	"Intellectual disability", "Multiple sclerosis", "Spinal cord injury",
	"Down syndrome", "Psychosocial disability", "Global developmental delay",
}

// fictionalMobiles are mobile numbers (without the leading 0) in the
// 0491 57x xxx block used for fiction.
const fictionalMobileBase = 491570000

// Landlines use the 5550 xxxx and 7010 xxxx blocks that every area code
// keeps for fiction.
var fictionalLandlinePrefixes = []string{"5550", "7010"}
