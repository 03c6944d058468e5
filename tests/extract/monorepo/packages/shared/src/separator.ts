const SEP = '#';
export default SEP;
