# --topology's k numbers need k + 2 --rates, as --help and hta-gen(1) say
# with these examples (issue 71): racks of 50 with 3 rates, pods of 10
# racks with 4; another count is refused with both counts.
cd "$TMP" && $HTA gen cluster random --servers 100 --topology 50 --rates 1,0.5,0.2 -o a.txt && grep '^rates\|^topology' a.txt
$HTA gen cluster random --servers 1000 --topology 50,10 --rates 1,0.9,0.6,0.25 -o b.txt && grep '^rates\|^topology' b.txt
$HTA gen cluster random --topology 50,10 --rates 1,0.5,0.2 -o c.txt
echo "exit $?"
$HTA gen cluster --help | grep -A3 -e '--rates\|--topology'
