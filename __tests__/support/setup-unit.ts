import "@testing-library/jest-dom";
import "jest-styled-components";
