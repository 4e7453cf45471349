package phones

// Parsing, validating and formatting as libphonenumber does them, ported
// from github.com/nyaruka/phonenumbers v1.8.1 (MIT licence; its names are
// kept in comments so that the two can be read side by side), for the
// calls this package makes: Parse, IsValidNumber, GetRegionCodeForNumber
// and Format in E.164, national and international form. The metadata is
// territories.go, generated from that library's; TestMatchesLibphonenumber
// runs both over every region's example numbers, typed every way, and over
// thousands of other inputs.
//
// Why not the library itself: it decodes all of its metadata into
// protobuf messages when the program starts (2.5 MB in 35,000
// allocations, 5 ms of the api function's cold start) and links protobuf's
// runtime (1.5 MB of the api's zip), for three calls (issue 23.4).

import (
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode"
)

type desc struct {
	pattern            string
	lengths, localOnly []int32
}

type numberFormat struct {
	pattern, format, leadingDigits, prefixRule string
}

type territory struct {
	id                                         string
	code                                       int32
	intlPrefix, prefixForParsing               string
	prefixTransform, leadingDigits, extnPrefix string
	general                                    desc
	types                                      []desc
	formats, intlFormats                       []numberFormat
}

type callingCode struct {
	code    int
	regions []string
}

// number is a parsed phone number (libphonenumber's PhoneNumber, as far as
// this package reads it).
type number struct {
	countryCode int
	national    uint64
	// leadingZeros is how many zeros the national significant number
	// starts with (Italian leading zeros); 0 when none.
	leadingZeros int
	extension    string
}

const (
	minLengthForNSN     = 2
	maxLengthForNSN     = 17
	maxLengthCountry    = 3
	maxInputLength      = 250
	regionNonGeo        = "001"
	plusSign            = '+'
	rfc3966ExtnPrefix   = ";ext="
	rfc3966Prefix       = "tel:"
	rfc3966PhoneContext = ";phone-context="
	rfc3966IsdnSub      = ";isub="
	defaultExtnPrefix   = " ext. "

	validPunctuation = "-x\u2010-\u2015\u2212\u30FC\uFF0D-\uFF0F " +
		"\u00A0\u00AD\u200B\u2060\u3000()\uFF08\uFF09\uFF3B\uFF3D." +
		"\\[\\]/~\u2053\u223C\uFF5E"
	digits     = "\\p{Nd}"
	validAlpha = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
	plusChars  = "+\uFF0B"
)

// patterns are libphonenumber's fixed expressions, compiled on first use.
var patterns = sync.OnceValue(func() *fixedPatterns {
	validPhoneNumber := digits + "{" + strconv.Itoa(minLengthForNSN) + "}" + "|" +
		"[" + plusChars + "]*(?:[" + validPunctuation + "*]*" + digits + "){3,}[" +
		validPunctuation + "*" + validAlpha + digits + "]*"
	const (
		sepBeforeLabel      = "[ \u00A0\\t,]*"
		charsAfterLabel     = "[:\\.\uFF0E]?[ \u00A0\\t,-]*"
		optionalSuffix      = "#?"
		explicitLabels      = "(?:e?xt(?:ensi(?:o\u0301?|\u00F3))?n?|\uFF45?\uFF58\uFF54\uFF4E?|\u0434\u043E\u0431|anexo)"
		ambiguousLabels     = "(?:[x\uFF58#\uFF03~\uFF5E]|int|\uFF49\uFF4E\uFF54)"
		ambiguousSeparator  = "[- ]+"
		sepNoComma          = "[ \u00A0\\t]*"
		autoDiallingAndExts = "(?:,{2}|;)"
	)
	extnForMatching := rfc3966ExtnPrefix + "(" + digits + "{1,20})" + "|" +
		sepBeforeLabel + explicitLabels + charsAfterLabel + "(" + digits + "{1,20})" + optionalSuffix + "|" +
		sepBeforeLabel + ambiguousLabels + charsAfterLabel + "(" + digits + "{1,9})" + optionalSuffix + "|" +
		ambiguousSeparator + "(" + digits + "{1,6})#"
	extnForParsing := extnForMatching + "|" +
		sepNoComma + autoDiallingAndExts + charsAfterLabel + "(" + digits + "{1,15})" + optionalSuffix + "|" +
		sepNoComma + "(?:,)+" + charsAfterLabel + "(" + digits + "{1,9})" + optionalSuffix
	const (
		visualSeparator = "[\\-\\.\\(\\)]?"
		phoneDigit      = "(" + digits + "|" + visualSeparator + ")"
		alphanum        = validAlpha + digits
		domainLabel     = "[" + alphanum + "]+((\\-)*[" + alphanum + "])*"
		topLabel        = "[" + validAlpha + "]+((\\-)*[" + alphanum + "])*"
	)
	return &fixedPatterns{
		plusChars:         regexp.MustCompile("[" + plusChars + "]+"),
		capturingDigit:    regexp.MustCompile("(" + digits + ")"),
		validStartChar:    regexp.MustCompile("[" + plusChars + digits + "]"),
		secondNumberStart: regexp.MustCompile("[\\\\/] *x"),
		unwantedEndChars:  regexp.MustCompile("[[\\P{N}&&\\P{L}]&&[^#]]+$"),
		validAlphaPhone:   regexp.MustCompile("^(?:.*?[A-Za-z]){3}.*$"),
		extn:              regexp.MustCompile("(?i)(?:" + extnForParsing + ")$"),
		validPhoneNumber:  regexp.MustCompile("(?i)^(" + validPhoneNumber + "(?:" + extnForParsing + ")?)$"),
		firstGroup:        regexp.MustCompile(`(\$\d)`),
		globalNumber:      regexp.MustCompile("^\\" + string(plusSign) + phoneDigit + "*" + digits + phoneDigit + "*$"),
		domainName:        regexp.MustCompile("^(" + domainLabel + "\\.)*" + topLabel + "\\.?$"),
	}
})

type fixedPatterns struct {
	plusChars, capturingDigit, validStartChar, secondNumberStart, unwantedEndChars *regexp.Regexp
	validAlphaPhone, extn, validPhoneNumber, firstGroup, globalNumber, domainName  *regexp.Regexp
}

// compiled caches the metadata's expressions, compiled on first use
// (regexFor).
var compiled sync.Map

func regexFor(pattern string) *regexp.Regexp {
	if re, ok := compiled.Load(pattern); ok {
		return re.(*regexp.Regexp)
	}
	re := regexp.MustCompile(pattern)
	compiled.Store(pattern, re)
	return re
}

// regionsOf is the regions of a calling code, the main one first
// (countryCodeToRegion).
func regionsOf(code int) []string {
	i := sort.Search(len(callingCodes), func(i int) bool { return callingCodes[i].code >= code })
	if i < len(callingCodes) && callingCodes[i].code == code {
		return callingCodes[i].regions
	}
	return nil
}

// supportedRegion reports whether region is a region of the metadata's
// (isValidRegionCode: the non-geographic entity is not one).
func supportedRegion(region string) bool {
	return region != "" && supportedRegions()[region]
}

func findTerritory(id string, code int32) *territory {
	i := sort.Search(len(territories), func(i int) bool {
		t := &territories[i]
		return t.id > id || t.id == id && t.code >= code
	})
	if i < len(territories) && territories[i].id == id {
		if id != regionNonGeo || territories[i].code == code {
			return &territories[i]
		}
	}
	return nil
}

// metadataForRegion is getMetadataForRegion.
func metadataForRegion(region string) *territory {
	if !supportedRegion(region) {
		return nil
	}
	return findTerritory(region, 0)
}

// metadataForRegionOrCode is getMetadataForRegionOrCallingCode.
func metadataForRegionOrCode(code int, region string) *territory {
	if region == regionNonGeo {
		if regionsOf(code) == nil {
			return nil
		}
		return findTerritory(regionNonGeo, int32(code))
	}
	return metadataForRegion(region)
}

// regionForCode is GetRegionCodeForCountryCode.
func regionForCode(code int) string {
	if r := regionsOf(code); len(r) > 0 {
		return r[0]
	}
	return "ZZ"
}

// supportedRegions is GetSupportedRegions.
var supportedRegions = sync.OnceValue(func() map[string]bool {
	out := map[string]bool{}
	for _, c := range callingCodes {
		if len(c.regions) == 1 && c.regions[0] == regionNonGeo {
			continue
		}
		for _, r := range c.regions {
			out[r] = true
		}
	}
	delete(out, regionNonGeo)
	return out
})

func extractPossibleNumber(s string) string {
	p := patterns()
	loc := p.validStartChar.FindStringIndex(s)
	if loc == nil {
		return ""
	}
	s = s[loc[0]:]
	if loc := p.unwantedEndChars.FindStringIndex(s); loc != nil {
		s = s[:loc[0]]
	}
	if loc := p.secondNumberStart.FindStringIndex(s); loc != nil {
		s = s[:loc[0]]
	}
	return s
}

func isViablePhoneNumber(s string) bool {
	return len(s) >= minLengthForNSN && patterns().validPhoneNumber.MatchString(s)
}

var alphaPhoneMappings = map[rune]rune{
	'0': '0', '1': '1', '2': '2', '3': '3', '4': '4', '5': '5', '6': '6', '7': '7', '8': '8', '9': '9',
	'A': '2', 'B': '2', 'C': '2', 'D': '3', 'E': '3', 'F': '3', 'G': '4', 'H': '4', 'I': '4',
	'J': '5', 'K': '5', 'L': '5', 'M': '6', 'N': '6', 'O': '6', 'P': '7', 'Q': '7', 'R': '7', 'S': '7',
	'T': '8', 'U': '8', 'V': '8', 'W': '9', 'X': '9', 'Y': '9', 'Z': '9',
}

// normalize is libphonenumber's normalize: letters to their keypad digits
// when the number has three or more, else digits only.
func normalize(s string) string {
	var b strings.Builder
	if patterns().validAlphaPhone.MatchString(s) {
		for _, c := range s {
			if d, ok := alphaPhoneMappings[unicode.ToUpper(c)]; ok {
				b.WriteRune(d)
			}
		}
		return b.String()
	}
	return normalizeDigitsOnly(s)
}

// normalizeDigitsOnly keeps the digits, Arabic-Indic and full-width ones
// as ASCII.
func normalizeDigitsOnly(s string) string {
	var b strings.Builder
	for _, c := range s {
		if !unicode.IsDigit(c) {
			continue
		}
		switch {
		case c >= '\u0660' && c <= '\u0669':
			c = '0' + c - '\u0660'
		case c >= '\u06F0' && c <= '\u06F9':
			c = '0' + c - '\u06F0'
		case c >= '\uFF10' && c <= '\uFF19':
			c = '0' + c - '\uFF10'
		}
		b.WriteRune(c)
	}
	return b.String()
}

// parse is libphonenumber's Parse (parseHelper, checking the region, not
// keeping the raw input); ok is false where it returns an error.
func parse(toParse, defaultRegion string) (n number, ok bool) {
	if toParse == "" || len(toParse) > maxInputLength {
		return n, false
	}
	national, ok := nationalNumberForParsing(toParse)
	if !ok || !isViablePhoneNumber(national) {
		return n, false
	}
	if !supportedRegion(defaultRegion) && (national == "" || !patterns().plusChars.MatchString(national)) {
		return n, false
	}
	national, n.extension = stripExtension(national)
	meta := metadataForRegion(defaultRegion)
	code, nsn, err := extractCountryCode(national, meta)
	if err != nil {
		loc := patterns().plusChars.FindStringIndex(national)
		if err != errInvalidCountryCode || loc == nil {
			return n, false
		}
		// Strip the plus sign, and try again.
		code, nsn, err = extractCountryCode(national[loc[1]:], meta)
		if err != nil || code == 0 {
			return n, false
		}
	}
	if code != 0 {
		if region := regionForCode(code); region != defaultRegion {
			meta = metadataForRegionOrCode(code, region)
		}
	} else {
		nsn = normalize(national)
		if defaultRegion != "" && meta != nil {
			code = int(meta.code)
		}
	}
	n.countryCode = code
	if len(nsn) < minLengthForNSN {
		return n, false
	}
	if meta != nil {
		stripped, _ := stripNationalPrefix(nsn, meta)
		switch testNumberLength(stripped, meta) {
		case tooShort, possibleLocalOnly, invalidLength:
		default:
			nsn = stripped
		}
	}
	if len(nsn) < minLengthForNSN || len(nsn) > maxLengthForNSN {
		return n, false
	}
	if len(nsn) > 1 && nsn[0] == '0' {
		n.leadingZeros = 1
		for n.leadingZeros < len(nsn)-1 && nsn[n.leadingZeros] == '0' {
			n.leadingZeros++
		}
	}
	n.national, _ = strconv.ParseUint(nsn, 10, 64)
	return n, true
}

// nationalNumberForParsing is buildNationalNumberForParsing: the number of
// an RFC 3966 URI, or the part of s that may be a number.
func nationalNumberForParsing(s string) (string, bool) {
	var out string
	if i := strings.Index(s, rfc3966PhoneContext); i < 0 {
		out = extractPossibleNumber(s)
	} else {
		context := s[i+len(rfc3966PhoneContext):]
		if end := strings.IndexRune(context, ';'); end != -1 {
			context = context[:end]
		}
		p := patterns()
		if context == "" || !p.globalNumber.MatchString(context) && !p.domainName.MatchString(context) {
			return "", false
		}
		if i == 0 {
			out = extractPossibleNumber(s)
		} else {
			if context[0] == plusSign {
				out = context
			}
			start := 0
			if p := strings.Index(s, rfc3966Prefix); p >= 0 && p < i {
				start = p + len(rfc3966Prefix)
			}
			out += s[start:i]
		}
	}
	if i := strings.Index(out, rfc3966IsdnSub); i > 0 {
		out = out[:i]
	}
	return out, true
}

// stripExtension is maybeStripExtension.
func stripExtension(s string) (string, string) {
	re := patterns().extn
	loc := re.FindStringIndex(s)
	if loc == nil || !isViablePhoneNumber(s[:loc[0]]) {
		return s, ""
	}
	for _, ext := range re.FindStringSubmatch(s)[1:] {
		if ext != "" {
			return s[:loc[0]], ext
		}
	}
	return s, ""
}

type parseError string

func (e parseError) Error() string { return string(e) }

const (
	errInvalidCountryCode = parseError("invalid country code")
	errTooShortAfterIDD   = parseError("too short after the international prefix")
)

// extractCountryCode is maybeExtractCountryCode: the calling code the
// number gives (0: none) and the national number after it.
func extractCountryCode(s string, meta *territory) (int, string, error) {
	if s == "" {
		return 0, "", nil
	}
	idd := "NonMatch"
	if meta != nil {
		idd = meta.intlPrefix
	}
	full, international := stripInternationalPrefix(s, idd)
	if international {
		if len(full) <= minLengthForNSN {
			return 0, "", errTooShortAfterIDD
		}
		if code, rest := leadingCountryCode(full); code != 0 {
			return code, rest, nil
		}
		return 0, "", errInvalidCountryCode
	}
	if meta != nil {
		cc := strconv.Itoa(int(meta.code))
		if strings.HasPrefix(full, cc) {
			national, _ := stripNationalPrefix(full[len(cc):], meta)
			valid := regexFor("^(?:" + meta.general.pattern + ")$")
			if !valid.MatchString(full) && valid.MatchString(national) || testNumberLength(full, meta) == tooLong {
				return int(meta.code), national, nil
			}
		}
	}
	return 0, "", nil
}

// leadingCountryCode is extractCountryCode.
func leadingCountryCode(full string) (int, string) {
	if full == "" || full[0] == '0' {
		return 0, ""
	}
	for i := 1; i <= maxLengthCountry && i <= len(full); i++ {
		code, _ := strconv.Atoi(full[:i])
		if regionsOf(code) != nil {
			return code, full[i:]
		}
	}
	return 0, ""
}

// stripInternationalPrefix is maybeStripInternationalPrefixAndNormalize:
// the number normalised, without its plus sign or international prefix,
// and whether it had either.
func stripInternationalPrefix(s, idd string) (string, bool) {
	if s == "" {
		return s, false
	}
	p := patterns()
	if loc := p.plusChars.FindStringIndex(s); loc != nil && loc[0] == 0 {
		return normalize(s[loc[1]:]), true
	}
	s = normalize(s)
	loc := regexFor(idd).FindStringIndex(s)
	if loc == nil || loc[0] != 0 {
		return s, false
	}
	if d := p.capturingDigit.FindString(s[loc[1]:]); d != "" && normalizeDigitsOnly(d) == "0" {
		return s, false
	}
	return s[loc[1]:], true
}

// stripNationalPrefix is maybeStripNationalPrefixAndCarrierCode, without
// the carrier code.
func stripNationalPrefix(s string, meta *territory) (string, bool) {
	if s == "" || meta.prefixForParsing == "" {
		return s, false
	}
	prefix := regexFor("^(?:" + meta.prefixForParsing + ")")
	if !prefix.MatchString(s) {
		return s, false
	}
	rule := regexFor("^(?:" + meta.general.pattern + ")$")
	viable := rule.MatchString(s)
	groups := prefix.FindStringSubmatchIndex(s)
	last := len(groups)/2 - 1
	if meta.prefixTransform == "" || groups[last*2] < 0 {
		if viable && !rule.MatchString(s[groups[1]:]) {
			return s, false
		}
		return s[groups[1]:], true
	}
	transformed := prefix.ReplaceAllString(s, meta.prefixTransform)
	if viable && !rule.MatchString(transformed) {
		return s, false
	}
	return transformed, true
}

type lengthResult int

const (
	possible lengthResult = iota
	possibleLocalOnly
	tooShort
	tooLong
	invalidLength
)

// testNumberLength is libphonenumber's, for an unknown type (the general
// description).
func testNumberLength(s string, meta *territory) lengthResult {
	lengths := meta.general.lengths
	if lengths[0] == -1 {
		return invalidLength
	}
	n := int32(len(s))
	switch {
	case slices.Contains(meta.general.localOnly, n):
		return possibleLocalOnly
	case lengths[0] == n:
		return possible
	case lengths[0] > n:
		return tooShort
	case lengths[len(lengths)-1] < n:
		return tooLong
	case slices.Contains(lengths[1:], n):
		return possible
	}
	return invalidLength
}

// nsn is GetNationalSignificantNumber.
func (n number) nsn() string {
	return strings.Repeat("0", min(n.leadingZeros, maxLengthForNSN)) + strconv.FormatUint(n.national, 10)
}

// matches is isNumberMatchingDesc.
func (d desc) matches(nsn string) bool {
	if len(d.lengths) > 0 && !slices.Contains(d.lengths, int32(len(nsn))) {
		return false
	}
	return regexFor("^(?:" + d.pattern + ")$").MatchString(nsn)
}

// validFor is getNumberTypeHelper(…) != UNKNOWN.
func validFor(nsn string, meta *territory) bool {
	if !meta.general.matches(nsn) {
		return false
	}
	for _, d := range meta.types {
		if d.matches(nsn) {
			return true
		}
	}
	return false
}

// region is GetRegionCodeForNumber ("" when none).
func (n number) region() string {
	regions := regionsOf(n.countryCode)
	switch len(regions) {
	case 0:
		return ""
	case 1:
		return regions[0]
	}
	nsn := n.nsn()
	for _, r := range regions {
		meta := metadataForRegion(r)
		if meta.leadingDigits != "" {
			if regexFor("^(?:" + meta.leadingDigits + ")").MatchString(nsn) {
				return r
			}
		} else if validFor(nsn, meta) {
			return r
		}
	}
	return ""
}

// valid is IsValidNumber.
func (n number) valid() bool {
	region := n.region()
	meta := metadataForRegionOrCode(n.countryCode, region)
	if meta == nil || region != regionNonGeo && int32(n.countryCode) != metadataForRegion(region).code {
		return false
	}
	return validFor(n.nsn(), meta)
}

type style int

const (
	e164 style = iota
	international
	national
)

// format is Format.
func (n number) format(st style) string {
	nsn := n.nsn()
	cc := strconv.Itoa(n.countryCode)
	if st == e164 {
		return "+" + cc + nsn
	}
	if regionsOf(n.countryCode) == nil {
		return nsn
	}
	meta := metadataForRegionOrCode(n.countryCode, regionForCode(n.countryCode))
	out := formatNSN(nsn, meta, st)
	if n.extension != "" {
		if meta.extnPrefix != "" {
			out += meta.extnPrefix + n.extension
		} else {
			out += defaultExtnPrefix + n.extension
		}
	}
	if st == international {
		return "+" + cc + " " + out
	}
	return out
}

// formatNSN is formatNsn with its pattern (chooseFormattingPatternForNumber,
// formatNsnUsingPattern), without a carrier code.
func formatNSN(nsn string, meta *territory, st style) string {
	formats := meta.intlFormats
	if len(formats) == 0 || st == national {
		formats = meta.formats
	}
	for _, f := range formats {
		whole := regexFor("^(?:" + f.pattern + ")$")
		if f.leadingDigits == "" {
			if whole.FindString(nsn) != nsn || !whole.MatchString(nsn) {
				continue
			}
		} else if loc := regexFor(f.leadingDigits).FindStringIndex(nsn); loc == nil || loc[0] != 0 || !whole.MatchString(nsn) {
			continue
		}
		rule := f.format
		if st == national && f.prefixRule != "" {
			done := false
			rule = patterns().firstGroup.ReplaceAllStringFunc(rule, func(s string) string {
				if done {
					return s
				}
				done = true
				return f.prefixRule
			})
		}
		return regexFor(f.pattern).ReplaceAllString(nsn, rule)
	}
	return nsn
}
