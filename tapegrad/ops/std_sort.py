"""The order PyTorch's CPU ``sort`` gives ties: its non-stable sort is C++'s ``std::sort``
(libstdc++'s introsort) over (value, index) pairs, so the ties of a slice longer than 16
come out in an order of that algorithm's making, not their input order.  ``introsort_order`` runs
the same steps (median-of-three pivot, unguarded partition, heapsort past the depth limit,
a final insertion sort) with PyTorch's comparator, in which NaN is the largest value, and
gives the same permutation (pinned against PyTorch by tests/test_torch_scripts14.py).

It is plain Python, run only for a slice that has ties and more than 16 values (shorter
ones std::sort insertion-sorts: the stable order), up to ``MAX_WORK`` values per call;
beyond that ties keep their stable order."""
MAX_WORK = 1 << 13  # values re-sorted in Python per call (8192: ~20 ms)
THRESHOLD = 16  # libstdc++'s _S_threshold: runs this short are left to insertion sort


def introsort_order(keys, descending):
    """The permutation std::sort makes of ``keys`` (a list) under PyTorch's comparator."""
    k, idx = list(keys), list(range(len(keys)))
    if descending:  # NaN first, then larger
        def less(a, b):
            return (a != a and b == b) or a > b
    else:  # NaN last
        def less(a, b):
            return (a == a and b != b) or a < b

    def swap(i, j):
        k[i], k[j] = k[j], k[i]
        idx[i], idx[j] = idx[j], idx[i]

    def median_to_first(r, a, b, c):
        if less(k[a], k[b]):
            swap(r, b if less(k[b], k[c]) else c if less(k[a], k[c]) else a)
        else:
            swap(r, a if less(k[a], k[c]) else c if less(k[b], k[c]) else b)

    def partition(first, last, pivot):
        while True:
            while less(k[first], k[pivot]):
                first += 1
            last -= 1
            while less(k[pivot], k[last]):
                last -= 1
            if not first < last:
                return first
            swap(first, last)
            first += 1

    def sift(first, hole, n, vk, vi):  # libstdc++'s __adjust_heap, then __push_heap
        top = second = hole
        while second < (n - 1) // 2:
            second = 2 * (second + 1)
            if less(k[first + second], k[first + second - 1]):
                second -= 1
            k[first + hole], idx[first + hole] = k[first + second], idx[first + second]
            hole = second
        if n % 2 == 0 and second == (n - 2) // 2:
            second = 2 * (second + 1)
            k[first + hole], idx[first + hole] = k[first + second - 1], idx[first + second - 1]
            hole = second - 1
        parent = (hole - 1) // 2
        while hole > top and less(k[first + parent], vk):
            k[first + hole], idx[first + hole] = k[first + parent], idx[first + parent]
            hole, parent = parent, (parent - 1) // 2
        k[first + hole], idx[first + hole] = vk, vi

    def heapsort(first, last):
        n = last - first
        for parent in range((n - 2) // 2, -1, -1):
            sift(first, parent, n, k[first + parent], idx[first + parent])
        while last - first > 1:
            last -= 1
            vk, vi = k[last], idx[last]
            k[last], idx[last] = k[first], idx[first]
            sift(first, 0, last - first, vk, vi)

    def introsort(first, last, depth):
        while last - first > THRESHOLD:
            if depth == 0:
                heapsort(first, last)
                return
            depth -= 1
            median_to_first(first, first + 1, first + (last - first) // 2, last - 1)
            cut = partition(first + 1, last, first)
            introsort(cut, last, depth)
            last = cut

    def insert(last):  # the unguarded linear insert: something smaller lies to the left
        vk, vi = k[last], idx[last]
        while less(vk, k[last - 1]):
            k[last], idx[last] = k[last - 1], idx[last - 1]
            last -= 1
        k[last], idx[last] = vk, vi

    n = len(k)
    if n > 1:
        introsort(0, n, 2 * (n.bit_length() - 1))  # (the depth limit: 2 floor(lg n))
        for i in range(1, n):  # the final insertion sort, unguarded past the first 16
            if i < THRESHOLD and less(k[i], k[0]):
                vk, vi = k[i], idx[i]
                k[1:i + 1], idx[1:i + 1] = k[:i], idx[:i]
                k[0], idx[0] = vk, vi
            else:
                insert(i)
    return idx
