// placeholder umbra-as (being written)
int main() { return 1; }
