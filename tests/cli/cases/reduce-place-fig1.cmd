$HTA reduce-place instances/slots/fig1.txt --jobs 4000 -K 2 --reducers uniform:1:4 --data uniform:1:10 --lambda 0.5 --window 20 --no-timing
