$HTA reduce-place --jobs-trace instances/swim/FB-2009_samples_24_times_1hr_0.tsv --lambda 0.6 --batches 10 --no-timing
