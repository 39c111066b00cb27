// Command go-nmea-bench times go-nmea's nmea.Parse (checksum check and typed parse) over
// every line of an NMEA corpus held in memory, as an anchor for Waymark's parser.
//
// Usage: go-nmea-bench [-runs N] CORPUS
//
// It prints key=value lines: sentences, errors (per sentence type the library rejects),
// and nanoseconds per sentence, best and median over the runs.
package main

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"sort"
	"strings"
	"time"

	nmea "github.com/adrianmo/go-nmea"
)

// fold reads one field of each typed result so that the parse cannot be skipped.
func fold(s nmea.Sentence) float64 {
	switch v := s.(type) {
	case nmea.RMC:
		return v.Latitude
	case nmea.GGA:
		return v.Altitude
	case nmea.GSA:
		return v.PDOP
	case nmea.GSV:
		return float64(v.NumberSVsInView)
	case nmea.VTG:
		return v.GroundSpeedKnots
	case nmea.GLL:
		return v.Longitude
	case nmea.ZDA:
		return float64(v.Day)
	case nmea.TXT:
		return float64(len(v.Message))
	}
	return 1
}

// run parses every line once; it returns the elapsed time, the folded sum and the
// number of rejected lines per sentence address.
func run(lines []string) (time.Duration, float64, map[string]int) {
	rejected := map[string]int{}
	sum := 0.0
	start := time.Now()
	for _, line := range lines {
		s, err := nmea.Parse(line)
		if err != nil {
			address, _, _ := strings.Cut(strings.TrimPrefix(line, "$"), ",")
			rejected[address]++
			continue
		}
		sum += fold(s)
	}
	return time.Since(start), sum, rejected
}

func main() {
	runs := flag.Int("runs", 5, "timed runs after one warm-up run")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: go-nmea-bench [-runs N] CORPUS")
		os.Exit(2)
	}
	data, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	var lines []string
	for _, line := range bytes.Split(data, []byte("\n")) {
		if line = bytes.TrimSuffix(line, []byte("\r")); len(line) > 0 {
			lines = append(lines, string(line))
		}
	}

	_, sum, rejected := run(lines)
	perSentence := make([]float64, *runs)
	for i := range perSentence {
		elapsed, runSum, _ := run(lines)
		if runSum != sum {
			fmt.Fprintln(os.Stderr, "runs disagree")
			os.Exit(1)
		}
		perSentence[i] = float64(elapsed.Nanoseconds()) / float64(len(lines))
	}
	sort.Float64s(perSentence)

	fmt.Printf("sentences=%d\n", len(lines))
	addresses := make([]string, 0, len(rejected))
	for address := range rejected {
		addresses = append(addresses, address)
	}
	sort.Strings(addresses)
	for _, address := range addresses {
		fmt.Printf("rejected.%s=%d\n", address, rejected[address])
	}
	fmt.Printf("checksum=%.6g\n", sum)
	fmt.Printf("ns_per_sentence_best=%.1f\n", perSentence[0])
	fmt.Printf("ns_per_sentence_median=%.1f\n", perSentence[len(perSentence)/2])
}
