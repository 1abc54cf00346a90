package reflectx

import (
	"time"

	"github.com/toolnexus/toolnexus/internal/formats"
)

// parseDateTime parses an RFC 3339 date-time as formats.ParseDateTimeBytes
// does, with a fast path for the form models send most, a UTC time to the
// second ("2026-03-14T09:30:00Z"): valid fields make the time directly;
// anything else, an invalid field included, takes the general parser, which
// also words the error.
func parseDateTime(b []byte) (time.Time, error) {
	if t, ok := fastDateTime(b); ok {
		return t, nil
	}
	return formats.ParseDateTimeBytes(b)
}

// fastDateTime is parseDateTime's fast path: ok is false for anything
// but a valid UTC time to the second, "2026-03-14T09:30:00Z", whose 20
// bytes are then all digits and separators.
func fastDateTime(b []byte) (time.Time, bool) {
	if len(b) == 20 && b[4] == '-' && b[7] == '-' && b[10] == 'T' && b[13] == ':' && b[16] == ':' && b[19] == 'Z' {
		year, ok1 := num2(b[0], b[1])
		y2, ok2 := num2(b[2], b[3])
		month, ok3 := num2(b[5], b[6])
		day, ok4 := num2(b[8], b[9])
		hour, ok5 := num2(b[11], b[12])
		minute, ok6 := num2(b[14], b[15])
		sec, ok7 := num2(b[17], b[18])
		year = year*100 + y2
		if ok1 && ok2 && ok3 && ok4 && ok5 && ok6 && ok7 &&
			month >= 1 && month <= 12 && day >= 1 && day <= daysIn(month, year) &&
			hour <= 23 && minute <= 59 && sec <= 59 {
			// time.Unix(...).UTC() is the time time.Date makes in UTC,
			// without its normalization and zone lookup.
			return time.Unix(int64(daysFromCivil(year, month, day))*86400+int64(hour*3600+minute*60+sec), 0).UTC(), true
		}
	}
	return time.Time{}, false
}

// daysFromCivil returns the number of days from 1970-01-01 to the valid
// date year-month-day (proleptic Gregorian, year 0 to 9999), counting
// years from March so that a leap day ends a year.
func daysFromCivil(year, month, day int) int {
	if month <= 2 {
		year--
	}
	year += 400 // year >= 0 for the division: the cycle repeats every 400 years, 146,097 days
	era := year / 400
	yoe := year - era*400                     // [0, 399]
	doy := (153*((month+9)%12)+2)/5 + day - 1 // [0, 365], from March 1
	doe := yoe*365 + yoe/4 - yoe/100 + doy    // [0, 146096]
	return era*146097 + doe - 719468 - 146097
}

// num2 reads two decimal digits.
func num2(a, b byte) (int, bool) {
	a, b = a-'0', b-'0'
	return int(a)*10 + int(b), a <= 9 && b <= 9
}

// daysIn returns the number of days of month in year (proleptic Gregorian).
func daysIn(month, year int) int {
	switch month {
	case 2:
		if year%4 == 0 && (year%100 != 0 || year%400 == 0) {
			return 29
		}
		return 28
	case 4, 6, 9, 11:
		return 30
	}
	return 31
}
