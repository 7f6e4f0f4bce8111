#!/bin/sh
# Run each cmocka test binary given as an argument; print one summary line at the end.
passed=0
failed=0
for t in "$@"; do
	if "$t"; then
		passed=$((passed + 1))
	else
		failed=$((failed + 1))
		echo "FAIL: $t"
	fi
done
echo "unit: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
