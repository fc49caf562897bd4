# SPDX-License-Identifier: GPL-2.0
#
# volatile.sed - what test_golden.sh blanks in fabteld's output before the
# comparison: values that change from run to run or host to host, matched
# by metric name or JSON key, never by line.
#
# times and durations
s/^\(fabtel_\(sample\|scrape\)_duration_seconds\) .*/\1 <duration>/
s/^\(fabtel_sample_timestamp_seconds\) .*/\1 <time>/
s/"\(sample_time\|at\|last_flap\|started\|fault_time\|clean_since\|until\|acked_time\)":[0-9][0-9.e+-]*/"\1":"<time>"/g
s/^\(fabtel_port_last_fault_timestamp_seconds{[^}]*}\) .*/\1 <time>/
s/"sample_seconds":[0-9][0-9.e+-]*/"sample_seconds":"<duration>"/
# the version the tree was built as
s/^\(fabtel_build_info{version=\)"[^"]*"/\1"<version>"/
# ...and the machine's name (host_name's default)
s/^\(fabtel_build_info{[^}]*,host=\)"[^"]*"/\1"<host>"/
s/"version":"[^"]*"/"version":"<version>"/
# RDMA netlink is the build host's, not the fixture's
s/^\(fabtel_source_up{source="rdma_netlink"}\) .*/\1 <host>/
s/^\(fabtel_source_state{source="rdma_netlink",state="[a-z]*"}\) .*/\1 <host>/
# the process itself
s/^\(process_[a-z_]*\) .*/\1 <process>/
s/^\(fabtel_collector_cpu_seconds_total{[^}]*}\) .*/\1 <process>/
/"rdma_netlink":{/,/}/s/"\(state\|why\)":"[^"]*"/"\1":"<host>"/
